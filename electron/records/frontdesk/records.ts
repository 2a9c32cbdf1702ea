import type { SiteEvent } from '../../shared/frontdesk-api'
import type { Database, Sql } from '../sql/types'
import { AccountRepository } from './accounts-repository'
import { KioskRepository } from './kiosks-repository'
import { LookRepository } from './look-repository'
import { PairingCodeRepository } from './pairing-codes-repository'
import { StaffSessionRepository } from './staff-sessions-repository'
import { WatchlistRepository } from './watchlist-repository'

/** Every front-desk repository over one connection or one transaction. */
export interface FrontDeskRecords {
  accounts: AccountRepository
  sessions: StaffSessionRepository
  watchlist: WatchlistRepository
  kiosks: KioskRepository
  pairingCodes: PairingCodeRepository
  look: LookRepository
}

export function recordsOn(sql: Sql): FrontDeskRecords {
  return {
    accounts: new AccountRepository(sql),
    sessions: new StaffSessionRepository(sql),
    watchlist: new WatchlistRepository(sql),
    kiosks: new KioskRepository(sql),
    pairingCodes: new PairingCodeRepository(sql),
    look: new LookRepository(sql),
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

export function rulesContext(db: Database, now: () => number, announce: (event: SiteEvent) => void): RulesContext {
  return {
    db,
    records: recordsOn(db),
    transaction: (work) => db.transaction((tx) => work(recordsOn(tx), tx)),
    now,
    announce,
  }
}
