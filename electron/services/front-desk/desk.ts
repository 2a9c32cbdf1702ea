import type { ListedKiosk, Look, LookPatch, PairingCodeResult, ScreenResult, StaffSessionResult, StaffWho } from '../../shared/frontdesk-api'
import type { AccountView, StaffRole } from '../../shared/staff'
import type { WatchlistAlert, WatchlistEntry, WatchlistPlace } from '../../shared/watchlist'
import type { Invite, InviteState } from '../../shared/invites'
import type { InviteAlert } from '../../shared/invite-alerts'
import type { Host, HostName, OnSiteCopy, Visit, VisitFilter, VisitOverview, VisitOverviewRange } from '../../shared/visits'
import type { HostNotice, HostNoticeQueue, HostNoticeSecretStatus, HostNoticeSecretsInput, HostNoticeSettings, SmtpSettings } from '../../shared/host-notices'
import type { CheckInOutcome, CheckInPerson, CheckInRequest, HostFields, InviteCheck, NewInviteRequest, PersonKeys } from '../../records/frontdesk/visit-types'

/** Who is about to be admitted: the persons their face or e-mail points to, and the e-mail they gave. */
export interface ScreeningSubject {
  personUuids: readonly string[]
  givenEmail: string | null
  place: WatchlistPlace
  /**
   * The visitor's face samples, when the act has them (an enrollment, a check-in by face). Online the
   * site's 1:N has already named whom they match (`personUuids`); while the site is away a site kiosk
   * compares them with the listed persons' faces in its copy.
   */
  samples?: readonly string[]
}

/**
 * A visitor as the kiosk knows them. `personUuid` null: not by the servers' id yet (their enrollment
 * waits in the outbox, or the offline replica recognised them: its ids are its own), only by e-mail.
 * Only a site's kiosk takes such a person: it keeps the act and learns the id before the site gets it.
 */
export interface KioskPerson {
  personUuid: string | null
  email: string
}
export type KioskCheckIn = Omit<CheckInRequest, 'kioskId' | 'person'> & { person: Omit<CheckInPerson, 'personUuid'> & KioskPerson }

/** A staff session the front desk issued, as this kiosk holds it for one window or tab. */
export interface HeldSession {
  /** The front desk's opaque token: sent with that session's calls, never to a renderer. */
  token: string
  account: string
}

/**
 * The front desk as a kiosk reaches it: its own, in-process on frontdesk.db, when the
 * kiosk is on its own; its site's, over HTTP, when it joined one. The features see only this, so
 * staff and the watchlist take one path whichever it is.
 *
 * Calls without a session are what anyone at the screen may cause (sign in, screen a visitor). A
 * staff session's calls go through `as(session)`: the object it returns carries that session and
 * no other, so a call made for one window cannot be sent with another window's token.
 */
export interface KioskDesk {
  /** Which front desk: a session it issued is good only at the same desk. */
  readonly id: string
  /** On a site: its alerts come back to every kiosk (this one too) by the site's events. */
  readonly onSite: boolean
  accountCount(): Promise<number>
  createFirstAdmin(name: string, secret: string): Promise<StaffSessionResult>
  signIn(name: string, secret: string): Promise<StaffSessionResult>
  /** The session's account and role as they are now; UNAUTHORIZED once it ended. */
  session(token: string): Promise<StaffWho>
  signOut(token: string): Promise<void>
  screen(subject: ScreeningSubject): Promise<ScreenResult>
  /** The organisation's look, the site's (a kiosk on its own keeps its look in its settings: NOT_CONFIGURED). */
  look(): Promise<Look>
  /** Whom a visitor can pick. */
  listHostNames(): Promise<HostName[]>
  /** At this kiosk (the desk names it). */
  checkIn(request: KioskCheckIn): Promise<CheckInOutcome>
  /** The person's open visit ends; null when they were not on site. `offline`: a site kiosk kept the check-out for its site, which could not be reached. */
  checkOut(person: KioskPerson): Promise<(Visit & { offline?: true }) | null>
  lastVisitOf(personUuid: string): Promise<Visit | null>
  checkInvite(token: string): Promise<InviteCheck>
  as(session: HeldSession): StaffDesk
}

/** One staff session's calls at the front desk (the desk checks the role again: the kiosk's check is a first filter). */
export interface StaffDesk {
  listAccounts(): Promise<AccountView[]>
  createAccount(name: string, role: StaffRole, secret: string): Promise<AccountView>
  setAccountDisabled(name: string, disabled: boolean): Promise<AccountView>
  listWatchlist(): Promise<WatchlistEntry[]>
  /** The person was looked up on the person server first; the entry names the session's account. */
  addToWatchlist(entry: { personUuid: string; email: string; reason: string }): Promise<WatchlistEntry>
  /** False when the person was not on the list. */
  removeFromWatchlist(personUuid: string): Promise<boolean>
  watchlistAlerts(): Promise<WatchlistAlert[]>
  /** False when no open alert has this id. */
  dismissAlert(id: string): Promise<boolean>
  /** Invitation codes the site would not count (a code used at two kiosks while it was away); none on a kiosk on its own. */
  inviteAlerts(): Promise<InviteAlert[]>
  /** False when no open invitation alert has this id. */
  dismissInviteAlert(id: string): Promise<boolean>
  createPairingCode(): Promise<PairingCodeResult>
  listKiosks(): Promise<ListedKiosk[]>
  /** False when the site has no such kiosk. */
  removeKiosk(id: string): Promise<boolean>
  /** Changes the site's look (administrators); every kiosk is told by the site's `look` event. */
  setLook(patch: LookPatch): Promise<Look>

  listHosts(): Promise<Host[]>
  addHost(fields: HostFields): Promise<Host>
  /** NOT_FOUND when there is no such host. */
  updateHost(id: string, fields: HostFields): Promise<Host>
  /** False when there was no such host. */
  removeHost(id: string): Promise<boolean>
  /** The evacuation list: everyone on site, with the kiosk each came through; `offline` when it is a site kiosk's copy (the site could not be reached). */
  onSite(): Promise<{ visits: Visit[]; offline: OnSiteCopy | null }>
  visitLog(filter: VisitFilter, pageNo: number, pageSize: number): Promise<{ visits: Visit[]; total: number }>
  visitOverview(range: VisitOverviewRange): Promise<VisitOverview>
  exportVisits(filter: VisitFilter): Promise<Visit[]>
  /** NOT_FOUND / INVALID_INPUT (already ended). */
  endVisit(id: string): Promise<Visit>
  /** A visitor removed: their visits and invites go with them. */
  forgetPerson(person: PersonKeys): Promise<{ visitIds: string[]; invites: number }>
  /** `createdBy` is the session's account. */
  createInvite(request: Omit<NewInviteRequest, 'createdBy'>): Promise<{ invite: Invite; token: string }>
  listInvites(state?: InviteState): Promise<{ invites: Invite[]; truncated: boolean }>
  revokeInvite(id: string): Promise<Invite>

  // Host notices: a site sends them itself (a kiosk on its own keeps its own queue: NOT_CONFIGURED here).
  hostNotices(): Promise<HostNoticeQueue>
  /** NOT_FOUND / INVALID_INPUT (in flight or delivered). */
  retryHostNotice(id: string): Promise<HostNotice>
  hostNoticeSettings(): Promise<HostNoticeSettings>
  saveHostNoticeSettings(smtp: SmtpSettings | null): Promise<HostNoticeSettings>
  /** Write-only: which secrets are stored after the change. */
  setHostNoticeSecrets(input: HostNoticeSecretsInput): Promise<HostNoticeSecretStatus>
}
