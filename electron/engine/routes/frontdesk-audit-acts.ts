import type { z } from 'zod'
import type { AuditAction } from '../../shared/audit'
import type { frontDeskRoutes, FrontDeskRouteName } from '../../shared/frontdesk-api'

type Routes = typeof frontDeskRoutes
type Part<N extends FrontDeskRouteName, K extends string> = Routes[N] extends { [key in K]: infer S extends z.ZodType } ? z.output<S> : undefined

/** What one answered call gives its entry: the route's parts, each only when it was valid (a refusal may come before any was read). */
export interface ActCall<N extends FrontDeskRouteName> {
  params: Part<N, 'params'> | undefined
  body: Part<N, 'body'> | undefined
  /** The route's reply, only when it succeeded. */
  reply: Part<N, 'response'> | undefined
}

/**
 * How a route's calls are recorded: the action, whom it concerns, what it did in ids and codes
 * (never an e-mail, a visitor's or host's name, a token, a PIN, a code or a free-text reason), and
 * a reply that is a refusal although it is a 200 (an invitation refused at check-in).
 */
export interface Act<N extends FrontDeskRouteName> {
  action: AuditAction
  personUuid?: (call: ActCall<N>) => string | null | undefined
  detail?: (call: ActCall<N>) => string | null | undefined
  refused?: (call: ActCall<N>) => boolean
  /** Who acted when no staff session says so: the account a sign-in was for. */
  account?: (call: ActCall<N>) => { account: string; role?: 'operator' | 'admin' } | null | undefined
  /** The kiosk when the token does not say (pairing: the kiosk it made). */
  kioskId?: (call: ActCall<N>) => string | null | undefined
}

/**
 * Every route of the table, recorded or not (null): reads of lists, the session check and the
 * event stream are not; everything that changes something, sign-ins, screenings, check-ins and
 * check-outs, and invitation checks are. A new route must be placed here to compile.
 */
export const frontDeskActs: { [N in FrontDeskRouteName]: Act<N> | null } = {
  pair: { action: 'kiosk-pair', kioskId: (c) => c.reply?.kioskId },
  // Never the code: until it is used or expires, it lets a kiosk in.
  createPairingCode: { action: 'pairing-code', detail: (c) => c.reply && `valid until ${c.reply.expiresAt}` },
  listKiosks: null,
  // Every 30 s from every kiosk: its state, not an act.
  reportHealth: null,
  removeKiosk: { action: 'kiosk-remove', detail: (c) => c.params && `kiosk ${c.params.id}` },

  staffStatus: null,
  signIn: { action: 'sign-in', account: (c) => (c.reply ? { account: c.reply.account.name, role: c.reply.account.role } : c.body && { account: c.body.name }) },
  createFirstAdmin: {
    action: 'account-change',
    detail: () => 'first administrator created',
    account: (c) => (c.reply ? { account: c.reply.account.name, role: c.reply.account.role } : c.body && { account: c.body.name }),
  },
  session: null,
  signOut: { action: 'sign-out' },
  listAccounts: null,
  createAccount: { action: 'account-change', detail: (c) => c.body && `${c.body.role} ${c.body.name} created` },
  setAccountDisabled: { action: 'account-change', detail: (c) => c.body && `${c.body.name} ${c.body.disabled ? 'disabled' : 'enabled'}` },

  listWatchlist: null,
  addToWatchlist: { action: 'watchlist-add', personUuid: (c) => c.body?.personUuid },
  removeFromWatchlist: { action: 'watchlist-remove', personUuid: (c) => c.params?.personUuid },
  screen: {
    action: 'watchlist-screen',
    personUuid: (c) => (c.reply?.screening === 'watchlisted' ? c.reply.personUuid : null),
    detail: (c) => [c.body && `at ${c.body.place}`, c.body && `${c.body.personUuids.length} ${c.body.personUuids.length === 1 ? 'person' : 'persons'}`, c.reply && (c.reply.screening === 'watchlisted' ? `watchlisted: alert ${c.reply.alertId}` : 'clear')].filter(Boolean).join('; '),
  },
  watchlistAlerts: null,
  dismissAlert: { action: 'watchlist-dismiss', detail: (c) => c.params && `alert ${c.params.id}` },
  inviteAlerts: null,
  dismissInviteAlert: { action: 'invite-alert-dismiss', detail: (c) => c.params && `alert ${c.params.id}` },

  look: null,
  setLook: { action: 'look-change', detail: (c) => c.body && Object.keys(c.body).sort().join(', ') },

  listHosts: null,
  listHostNames: null,
  addHost: { action: 'host-change', detail: (c) => (c.reply ? `host ${c.reply.id} added` : 'host added') },
  updateHost: { action: 'host-change', detail: (c) => c.params && `host ${c.params.id} changed` },
  removeHost: { action: 'host-change', detail: (c) => c.params && `host ${c.params.id} removed` },

  checkIn: {
    action: 'check-in',
    personUuid: (c) => c.body?.person.personUuid,
    refused: (c) => c.reply?.outcome === 'invite-refused',
    detail: (c) => {
      const invitation = c.body?.inviteToken ? 'with an invitation' : null
      const reply = c.reply
      if (!reply) return invitation
      if (reply.outcome === 'invite-refused') return `invitation refused: ${reply.reason}`
      return [`visit ${reply.visit.id}`, reply.alreadyOnSite ? 'already on site' : null, invitation, reply.visit.hostId ? `host ${reply.visit.hostId}` : null].filter(Boolean).join('; ')
    },
  },
  checkOut: { action: 'check-out', personUuid: (c) => c.params?.personUuid, detail: (c) => c.reply && (c.reply.visit ? `visit ${c.reply.visit.id}` : 'not on site') },
  lastVisit: null,
  onSite: null,
  visitLog: null,
  visitOverview: null,
  exportVisits: { action: 'visits-export', detail: (c) => c.reply && `${c.reply.length} visits` },
  endVisit: { action: 'check-out', personUuid: (c) => c.reply?.personUuid, detail: (c) => c.params && `visit ${c.params.id} ended by staff` },
  forgetPerson: {
    action: 'remove',
    personUuid: (c) => c.body?.personUuid,
    detail: (c) => c.reply && `${c.reply.visitIds.length} visits and ${c.reply.invites} invitations removed`,
  },

  // Never the token: it is the invitation itself.
  createInvite: { action: 'invite-create', detail: (c) => c.reply && `invite ${c.reply.invite.id} for ${c.reply.invite.date}; host ${c.reply.invite.hostId ?? 'none'}` },
  listInvites: null,
  revokeInvite: { action: 'invite-revoke', detail: (c) => c.params && `invite ${c.params.id}` },
  checkInvite: {
    action: 'invite-check',
    refused: (c) => c.reply?.status === 'refused',
    detail: (c) => c.reply && (c.reply.status === 'refused' ? `code refused: ${c.reply.reason}` : `code valid for ${c.reply.date}`),
  },

  // Ids and counts only: an act's e-mails and reason name a person.
  syncPull: null,
  syncPush: {
    action: 'sync-push',
    detail: (c) => [c.body && `${c.body.mutations.length} ${c.body.mutations.length === 1 ? 'act' : 'acts'} up to seq ${Math.max(...c.body.mutations.map((m) => m.seq))}`, c.reply && `last applied ${c.reply.lastMutationSeq}`].filter(Boolean).join('; '),
  },

  events: null,

  auditLog: null,
  verifyAudit: null,
  exportAudit: { action: 'audit-export', detail: (c) => [c.body?.format, c.reply && `${c.reply.entries} entries`, c.body?.kioskId && `kiosk ${c.body.kioskId}`].filter(Boolean).join('; ') },

  getHostNotices: null,
  retryHostNotice: { action: 'host-notice-retry', detail: (c) => c.params && `notice ${c.params.id}` },
  getHostNoticeSettings: null,
  // The server's name only: the sender address and account are left out as they name people.
  saveHostNoticeSettings: { action: 'settings-change', detail: (c) => c.body && (c.body.smtp ? `host notifications: SMTP ${c.body.smtp.host}:${c.body.smtp.port} (${c.body.smtp.security})` : 'host notifications: e-mail turned off') },
  // Which secrets were stored or cleared, never their values.
  setHostNoticeSecrets: {
    action: 'credentials-change',
    detail: (c) =>
      c.body &&
      (['smtpPassword', 'webhookSecret'] as const)
        .filter((name) => c.body![name] !== undefined)
        .map((name) => `${name === 'smtpPassword' ? 'SMTP password' : 'webhook signing secret'} ${c.body![name] === null ? 'cleared' : 'stored'}`)
        .join('; '),
  },
}
