import type { Look, LookPatch, PairingCodeResult, ScreenResult, KioskHealthReport, KioskWithCopy, SiteEvent, SiteKiosk, StaffSessionResult, StaffWho } from '../../shared/frontdesk-api'
import type { Invite, InviteState } from '../../shared/invites'
import type { InviteAlert } from '../../shared/invite-alerts'
import type { AccountView, StaffRole } from '../../shared/staff'
import type { Host, Visit, VisitFilter, VisitOverview, VisitOverviewRange } from '../../shared/visits'
import type { CheckInOutcome, CheckInRequest, HostFields, InviteCheck, InviteKeyring, NewInviteRequest, PersonKeys } from './visit-types'
import type { WatchlistAlert, WatchlistEntry, WatchlistPlace } from '../../shared/watchlist'
import type { Sql } from '../sql/types'
import type { NoticeSecrets } from './notices/settings'
import type { PullResult, PushResult, SyncMutation } from '../../shared/site-sync'

/** The topics a kiosk asked for beyond the watchlist, visits and kiosks (site-sync's pullQuery). */
export interface PullAsked {
  accounts?: boolean
  invites?: boolean
}

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
  /** Invitation codes not counted for check-ins made at kiosks away from the site (raised by syncPush), newest first, not dismissed. */
  inviteAlerts(): Promise<InviteAlert[]>
  /** Dismissed once for all kiosks (announced as a SiteEvent); false when no open invitation alert has this id. */
  dismissInviteAlert(id: string, by: string): Promise<boolean>

  // The site's kiosks.
  /** A single-use code, valid PAIRING_CODE_TTL_MS. */
  createPairingCode(createdBy: string): Promise<PairingCodeResult>
  /**
   * Uses the code up and records the kiosk; `alsoDo` runs in the same transaction (the engine makes
   * the kiosk's OAuth client there), so a failure leaves the code unused. REJECTED, saying which,
   * when the code is wrong, used or expired.
   */
  redeemPairingCode(code: string, name: string, alsoDo?: (tx: Sql, kiosk: SiteKiosk) => Promise<void>): Promise<SiteKiosk>
  /** Whether the code would pair a kiosk now (known, unused, unexpired); uses nothing up. */
  pairingCodeOpen(code: string): Promise<boolean>
  listKiosks(): Promise<KioskWithCopy[]>
  /** A paired kiosk's health report (every KIOSK_HEALTH_INTERVAL_MS), kept until the next. */
  reportKioskHealth(kioskId: string, report: KioskHealthReport): Promise<void>
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

  // Hosts: one directory for the site.
  listHosts(): Promise<Host[]>
  getHost(id: string): Promise<Host | null>
  addHost(fields: HostFields): Promise<Host>
  /** Null when there is no such host. A visit keeps the host's name as it was at check-in. */
  updateHost(id: string, fields: HostFields): Promise<Host | null>
  removeHost(id: string): Promise<boolean>

  // Visits: one list of who is on site, whichever door they came through.
  /**
   * One transaction: the person's open visit given back (alreadyOnSite), or the invitation checked
   * and used up and the visit stored together. Screening is the caller's, before. INVALID_INPUT when
   * the chosen host is not in the directory.
   */
  checkIn(request: CheckInRequest): Promise<CheckInOutcome>
  /** Ends the person's open visit (the visitor at a kiosk); null when they are not on site. */
  checkOut(personUuid: string): Promise<Visit | null>
  /** Staff end a visit: NOT_FOUND when there is none, INVALID_INPUT when it already ended. */
  endVisit(id: string): Promise<Visit>
  /** The person's latest visit (a returning visitor sees the same host for the same reason). */
  lastVisitOf(personUuid: string): Promise<Visit | null>
  /** Everyone on site, oldest check-in first (the evacuation list), each with the kiosk they came through. */
  onSite(): Promise<Visit[]>
  /** One page of the log, newest check-in first, with the count of all that match. */
  visitLog(filter: VisitFilter, pageNo: number, pageSize: number): Promise<{ visits: Visit[]; total: number }>
  /** The Overview's counts for check-ins in the range (never a person). */
  visitOverview(range: VisitOverviewRange): Promise<VisitOverview>
  /** Every visit that matches, newest first, up to VISIT_EXPORT_MAX (more is INVALID_INPUT: narrow the filter). */
  exportVisits(filter: VisitFilter): Promise<Visit[]>
  /** Removes the person's visits (by e-mail, any case, and by person id), their hosts' notices and their invites, in one transaction. */
  forgetPerson(person: PersonKeys): Promise<{ visitIds: string[]; invites: number }>
  /** The visitor retention: visits that ended (or, still open, began) before `cutoff`, with their hosts' notices; returns their ids. */
  purgeVisitsBefore(cutoff: number): Promise<string[]>

  // Invites: codes signed with the site's key, valid at every kiosk, used up once site-wide.
  createInvite(request: NewInviteRequest): Promise<{ invite: Invite; token: string }>
  listInvites(state?: InviteState): Promise<{ invites: Invite[]; truncated: boolean }>
  /** NOT_FOUND when there is none; INVALID_INPUT when it was used. */
  revokeInvite(id: string): Promise<Invite>
  /** What the visitor's form needs from a code, or why it is refused; uses nothing up. */
  checkInvite(token: string): Promise<InviteCheck>
  /** Removes invites that ended before `cutoff`; returns how many. */
  purgeInvitesBefore(cutoff: number): Promise<number>
  /** A new signing key for new codes; codes signed with older keys stay good until they expire. Returns its id. */
  rotateInviteKey(): Promise<string>

  // Sync (electron/shared/site-sync.ts): what a site's kiosk keeps a copy of, and its acts made away from the site.
  /**
   * The changes to the watchlist, open visits and kiosks (and staff accounts, invitations and
   * invitation keys, when asked) since `cookie`, each row as it is now; the whole of them (reset)
   * when the log no longer reaches `cookie`.
   */
  syncPull(kioskId: string, cookie: number, asked?: PullAsked): Promise<PullResult>
  /** Applies the kiosk's acts above the last sequence applied for it, each in the transaction that records it; returns the last applied. */
  syncPush(kioskId: string, mutations: readonly SyncMutation[]): Promise<PushResult>
  /** The newest change-log seq (0: none yet), to tell kiosks to pull after a write. */
  changesHead(): Promise<number>
  /** Keeps the newest `keep` changes; a kiosk whose cookie is older is sent everything (a reset). Returns how many went. */
  pruneChanges(keep: number): Promise<number>
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
  /** Where invitation codes' keys are kept: a kiosk on its own passes its keychain's; absent, the database's (a site). */
  inviteKeys?: InviteKeyring
  /**
   * True (a site's engines, and a kiosk on its own: openLocalFrontDesk): checkIn queues the
   * arrival's host notices in its transaction (notices/service.ts sends them) and answers
   * `host: null`. False (the default): checkIn answers the host and queues nothing.
   */
  notifyHosts?: boolean
  /**
   * Where the notices' secrets are kept (a site's sealed ones, a kiosk's keychain): with
   * `notifyHosts`, checkIn says the host will hear only on a channel that is set up. Absent: no
   * secret counts as stored.
   */
  noticeSecrets?: Pick<NoticeSecrets, 'status'>
}
