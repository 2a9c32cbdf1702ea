import { KioskError } from '../../shared/errors'
import type { SiteConnection } from '../clients/connect'
import type { KioskDesk, KioskPerson, StaffDesk } from '../front-desk/desk'
import { siteCall, type SiteCallOptions } from './site-http'

/**
 * The site's front desk over HTTP (FRONTDESK_PREFIX on the site's engines): the same rules as a
 * kiosk's own, applied by the site, which also checks every staff call's session and role. Each
 * call asks `connection()` for the site's client and token, so a credential or settings change
 * takes effect on the next call.
 */
export function siteDesk(id: string, connection: () => Promise<SiteConnection>): KioskDesk {
  /** The site knows its visitors by its own person id only (offline-desk.ts keeps the acts of one known by e-mail alone). */
  const siteIdOf = (person: KioskPerson): string => {
    if (person.personUuid === null) throw new KioskError('NOT_FOUND', 'The site does not know this visitor yet: their enrollment has not reached the servers.')
    return person.personUuid
  }
  const call = async <R extends Parameters<typeof siteCall>[1]>(name: R, options?: SiteCallOptions) => siteCall(await connection(), name, options)
  /** DELETE-like calls answer nothing; the site's NOT_FOUND means "there was none". */
  const found = (done: Promise<unknown>) =>
    done.then(
      () => true,
      (error: unknown) => {
        if (error instanceof KioskError && error.code === 'NOT_FOUND') return false
        throw error
      },
    )

  return {
    id,
    onSite: true,
    accountCount: async () => (await call('staffStatus')).accounts,
    createFirstAdmin: (name, secret) => call('createFirstAdmin', { body: { name, secret } }),
    signIn: (name, secret) => call('signIn', { body: { name, secret } }),
    session: (token) => call('session', { session: token }),
    signOut: (token) => call('signOut', { session: token }),
    screen: ({ personUuids, givenEmail, place }) => call('screen', { body: { personUuids: [...personUuids], givenEmail, place } }),
    look: () => call('look'),
    listHostNames: () => call('listHostNames'),
    // The kiosk is the site's to name: the token says which one calls.
    checkIn: async ({ person, hostId, purpose, inviteToken, asLastTime }) =>
      call('checkIn', { body: { person: { personUuid: siteIdOf(person), email: person.email, firstName: person.firstName }, hostId, purpose, inviteToken, asLastTime } }),
    checkOut: async (person) => (await call('checkOut', { params: { personUuid: siteIdOf(person) } })).visit,
    lastVisitOf: async (personUuid) => (await call('lastVisit', { params: { personUuid } })).visit,
    checkInvite: (token) => call('checkInvite', { body: { token } }),
    as({ token }): StaffDesk {
      // Every call below carries this session's token, and only it.
      const staff = <R extends Parameters<typeof siteCall>[1]>(name: R, options: Omit<SiteCallOptions, 'session'> = {}) => call(name, { ...options, session: token })
      return {
        listAccounts: () => staff('listAccounts'),
        createAccount: (name, role, secret) => staff('createAccount', { body: { name, role, secret } }),
        setAccountDisabled: (name, disabled) => staff('setAccountDisabled', { body: { name, disabled } }),
        listWatchlist: () => staff('listWatchlist'),
        addToWatchlist: ({ personUuid, email, reason }) => staff('addToWatchlist', { body: { personUuid, email, reason } }),
        removeFromWatchlist: (personUuid) => found(staff('removeFromWatchlist', { params: { personUuid } })),
        watchlistAlerts: () => staff('watchlistAlerts'),
        dismissAlert: (alertId) => found(staff('dismissAlert', { params: { id: alertId } })),
        inviteAlerts: () => staff('inviteAlerts'),
        dismissInviteAlert: (alertId) => found(staff('dismissInviteAlert', { params: { id: alertId } })),
        createPairingCode: () => staff('createPairingCode'),
        listKiosks: () => staff('listKiosks'),
        removeKiosk: (kioskId) => found(staff('removeKiosk', { params: { id: kioskId } })),
        setLook: (patch) => staff('setLook', { body: patch }),

        listHosts: () => staff('listHosts'),
        addHost: ({ name, email, webhookUrl }) => staff('addHost', { body: { name, email, webhookUrl } }),
        updateHost: (id, { name, email, webhookUrl }) => staff('updateHost', { params: { id }, body: { name, email, webhookUrl } }),
        removeHost: (id) => found(staff('removeHost', { params: { id } })),
        onSite: async () => ({ visits: await staff('onSite'), offline: null }),
        visitLog: (filter, pageNo, pageSize) => staff('visitLog', { body: { ...filter, pageNo, pageSize } }),
        visitOverview: (range) => staff('visitOverview', { body: range }),
        exportVisits: (filter) => staff('exportVisits', { body: filter }),
        endVisit: (id) => staff('endVisit', { params: { id } }),
        forgetPerson: ({ userId, personUuid }) => staff('forgetPerson', { body: { userId, personUuid } }),
        // `createdBy` is the session's account: the site takes it from the session, never the body.
        createInvite: ({ email, hostId, date, expiresAt }) => staff('createInvite', { body: { email, hostId, date, expiresAt } }),
        listInvites: (state) => staff('listInvites', { query: { state } }),
        revokeInvite: (id) => staff('revokeInvite', { params: { id } }),

        hostNotices: () => staff('getHostNotices'),
        retryHostNotice: (id) => staff('retryHostNotice', { params: { id } }),
        hostNoticeSettings: () => staff('getHostNoticeSettings'),
        saveHostNoticeSettings: (smtp) => staff('saveHostNoticeSettings', { body: { smtp } }),
        setHostNoticeSecrets: (input) => staff('setHostNoticeSecrets', { body: input }),
      }
    },
  }
}
