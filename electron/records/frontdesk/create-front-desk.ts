import type { Database } from '../sql/types'
import type { FrontDesk, FrontDeskOptions } from './front-desk'
import { kioskRules } from './kiosk-rules'
import { lookRules } from './look-rules'
import { rulesContext } from './records'
import { staffRules } from './staff-rules'
import { watchlistRules } from './watchlist-rules'

/**
 * The front desk's rules over a database the 'frontdesk' migration set has been applied to
 * (migrate(db, frontDeskMigrations)): a site's PostgreSQL, or a kiosk's own SQLite file
 * (openLocalFrontDesk). It holds no state of its own but the back-off of unknown sign-in names.
 */
export function createFrontDesk(db: Database, options: FrontDeskOptions = {}): FrontDesk {
  const context = rulesContext(db, options.now ?? Date.now, options.announce ?? (() => {}))
  return {
    ...staffRules(context, options),
    ...watchlistRules(context),
    ...kioskRules(context),
    ...lookRules(context),
  }
}
