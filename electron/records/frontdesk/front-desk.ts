import type { Look, LookPatch, PairingCodeResult, ScreenResult, SiteEvent, SiteKiosk, StaffSessionResult, StaffWho } from '../../shared/frontdesk-api'
import type { AccountView, StaffRole } from '../../shared/staff'
import type { WatchlistAlert, WatchlistEntry, WatchlistPlace } from '../../shared/watchlist'
import type { Sql } from '../sql/types'

/**
 * The front desk's rules over its records, once: the site's engines serve them on
 * /frontdesk/v1 (on the site's PostgreSQL), and a kiosk on its own calls them in-process (on its
 * own SQLite): a site of one. Refusals are KioskErrors (electron/shared/errors) with the words
 * staff read; the engine maps their codes to HTTP statuses and back.
 */
export interface FrontDesk {
  // Staff: the site's accounts and the sessions it issues.
  accountCount(): Promise<number>
  /** Only while no account exists; signs the new administrator in. */
  createFirstAdmin(name: string, secret: string, kioskId: string | null): Promise<StaffSessionResult>
  /** UNAUTHORIZED on a wrong name or secret or a disabled account; TOO_MANY_ATTEMPTS while the account is backed off (counted site-wide, persisted). */
  signIn(name: string, secret: string, kioskId: string | null): Promise<StaffSessionResult>
  /** The session's account and role as they are now; UNAUTHORIZED once it ended, idled out or its account was disabled. Counts as activity. */
  session(token: string): Promise<StaffWho>
  signOut(token: string): Promise<void>
  listAccounts(): Promise<AccountView[]>
  createAccount(name: string, role: StaffRole, secret: string): Promise<AccountView>
  /** Disabling ends every session of the account; the last active administrator cannot be disabled (REJECTED). */
  setAccountDisabled(name: string, disabled: boolean): Promise<AccountView>

  // The watchlist: one list for every kiosk of the site.
  listWatchlist(): Promise<WatchlistEntry[]>
  addToWatchlist(entry: { personUuid: string; email: string; reason: string; addedBy: string }): Promise<WatchlistEntry>
  /** False when the person was not on the list. */
  removeFromWatchlist(personUuid: string): Promise<boolean>
  /** A listed person (by any of these uuids, or the e-mail they were listed with) raises an alert, announced as a SiteEvent. */
  screen(subject: { personUuids: readonly string[]; givenEmail: string | null; place: WatchlistPlace; kioskId: string | null }): Promise<ScreenResult>
  watchlistAlerts(): Promise<WatchlistAlert[]>
  /** Dismissed once for all kiosks; false when no open alert has this id. */
  dismissAlert(id: string, by: string): Promise<boolean>
  /** Forgets alerts dismissed more than `keepDays` ago; returns how many. */
  pruneDismissed(keepDays: number): Promise<number>

  // The site's kiosks.
  /** A single-use code, valid PAIRING_CODE_TTL_MS. */
  createPairingCode(createdBy: string): Promise<PairingCodeResult>
  /**
   * Uses the code up and records the kiosk; `alsoDo` runs in the same transaction (the engine makes
   * the kiosk's OAuth client there), so a failure leaves the code unused. REJECTED, saying which,
   * when the code is wrong, used or expired.
   */
  redeemPairingCode(code: string, name: string, alsoDo?: (tx: Sql, kiosk: SiteKiosk) => Promise<void>): Promise<SiteKiosk>
  listKiosks(): Promise<SiteKiosk[]>
  /** The kiosk's calls are refused from now on; false when there was no such kiosk. */
  removeKiosk(id: string): Promise<boolean>
  /** The kiosk when it is paired and not removed (its last-seen time updated), else null. */
  seenKiosk(id: string): Promise<SiteKiosk | null>

  // The organisation's look: the same at every kiosk of the site.
  /** The look as set, or a kiosk's defaults before anyone set it. */
  getLook(): Promise<Look>
  /**
   * Changes only the fields given (INVALID_INPUT by the settings' rules, or for a logo that is not
   * a PNG within the size limits); announced as a `look` SiteEvent after the commit.
   */
  setLook(patch: LookPatch): Promise<Look>
}

export interface FrontDeskOptions {
  now?: () => number
  /** Told after the commit of each change every kiosk should hear of at once (alerts, the look). */
  announce?: (event: SiteEvent) => void
  /** Sign-in back-off: failures allowed before the first pause, the first pause, the longest. */
  freeFailures?: number
  firstPauseMs?: number
  maxPauseMs?: number
  /** A staff session unused this long ends (the kiosk's own idle timeout is shorter). */
  sessionIdleMs?: number
}
