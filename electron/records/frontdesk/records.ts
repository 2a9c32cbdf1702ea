import type { SiteEvent } from '../../shared/frontdesk-api'
import type { Database, Sql } from '../sql/types'
import { AccountRepository } from './accounts-repository'
import { HostRepository } from './hosts-repository'
import { InviteAlertRepository } from './invite-alerts-repository'
import { InviteKeyRepository } from './invite-keys-repository'
import { InviteRepository } from './invites-repository'
import { KioskRepository } from './kiosks-repository'
import { LookRepository } from './look-repository'
import { PairingCodeRepository } from './pairing-codes-repository'
import { StaffSessionRepository } from './staff-sessions-repository'
import { VisitRepository } from './visits-repository'
import { WatchlistRepository } from './watchlist-repository'

/** Every front-desk repository over one connection or one transaction. */
export interface FrontDeskRecords {
  accounts: AccountRepository
  sessions: StaffSessionRepository
  watchlist: WatchlistRepository
  kiosks: KioskRepository
  pairingCodes: PairingCodeRepository
  look: LookRepository
  hosts: HostRepository
  visits: VisitRepository
  invites: InviteRepository
  inviteKeys: InviteKeyRepository
  inviteAlerts: InviteAlertRepository
}

export function recordsOn(sql: Sql): FrontDeskRecords {
  return {
    accounts: new AccountRepository(sql),
    sessions: new StaffSessionRepository(sql),
    watchlist: new WatchlistRepository(sql),
    kiosks: new KioskRepository(sql),
    pairingCodes: new PairingCodeRepository(sql),
    look: new LookRepository(sql),
    hosts: new HostRepository(sql),
    visits: new VisitRepository(sql),
    invites: new InviteRepository(sql),
    inviteKeys: new InviteKeyRepository(sql),
    inviteAlerts: new InviteAlertRepository(sql),
  }
}

/** What each group of the front desk's rules works with. */
export interface RulesContext {
  db: Database
  /** The repositories outside any transaction. */
  records: FrontDeskRecords
  /** Runs `work` in one transaction, its repositories joining it. */
  transaction<T>(work: (records: FrontDeskRecords, tx: Sql) => Promise<T>): Promise<T>
  now: () => number
  /** Called only once the change it tells of is committed. */
  announce: (event: SiteEvent) => void
}

/**
 * `announce` made safe for rules to call after a commit: an announcement is a nudge (what it tells
 * of is in the records, and kiosks read them again when they reconnect), so a listener's fault must
 * not turn a committed act into a failed one.
 */
export const announceSafely =
  (announce: RulesContext['announce']): RulesContext['announce'] =>
  (event) => {
    try {
      announce(event)
    } catch {
      // the act is done
    }
  }

export function rulesContext(db: Database, now: () => number, announce: (event: SiteEvent) => void): RulesContext {
  return {
    db,
    records: recordsOn(db),
    transaction: (work) => db.transaction((tx) => work(recordsOn(tx), tx)),
    now,
    announce,
  }
}

/**
 * After personal data was removed from a SQLite file: the WAL folded back and truncated, so the
 * removed rows do not linger in its old frames (secure_delete zeroes them in the file itself).
 * Best effort: a busy reader leaves it to the next removal or SQLite's own checkpoint. Nothing to
 * do on PostgreSQL.
 */
export async function foldRemovals(db: Database): Promise<void> {
  if (db.dialect !== 'sqlite') return
  await db.exec('PRAGMA wal_checkpoint(TRUNCATE)').catch(() => {})
}
