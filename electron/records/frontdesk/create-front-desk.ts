import type { Database } from '../sql/types'
import type { FrontDesk, FrontDeskOptions } from './front-desk'
import { hostRules } from './hosts-rules'
import { databaseKeyring } from './invite-keyring'
import { inviteRules } from './invites-rules'
import { kioskRules } from './kiosk-rules'
import { lookRules } from './look-rules'
import { rulesContext } from './records'
import { staffRules } from './staff-rules'
import { syncRules } from './sync-rules'
import { visitRules } from './visits-rules'
import { watchlistRules } from './watchlist-rules'

/**
 * The front desk's rules over a database the 'frontdesk' migration set has been applied to
 * (migrate(db, frontDeskMigrations)): a site's PostgreSQL, or a kiosk's own SQLite file
 * (openLocalFrontDesk). It holds no state of its own but the back-off of unknown sign-in names
 * and the invitation keys it has read (a key never changes once made).
 */
export function createFrontDesk(db: Database, options: FrontDeskOptions = {}): FrontDesk {
  const now = options.now ?? Date.now
  const context = rulesContext(db, now, options.announce ?? (() => {}))
  // A kiosk on its own passes its keychain's key (singleKeyring); a site keeps its keys in its database.
  const inviteKeys = options.inviteKeys ?? databaseKeyring(db, now)
  return {
    ...staffRules(context, options),
    ...watchlistRules(context),
    ...kioskRules(context),
    ...lookRules(context),
    ...hostRules(context),
    ...visitRules(context, inviteKeys, options.notifyHosts ?? false, options.noticeSecrets ?? null),
    ...inviteRules(context, inviteKeys),
    ...syncRules(context, options.notifyHosts ?? false),
  }
}
