import type { FrontDesk } from '../../records/frontdesk/front-desk'
import type { PersonKeys } from '../../records/frontdesk/visit-types'
import { KioskError } from '../../shared/errors'
import { notOnSite } from '../backend-resolver'
import type { KioskDesk, KioskPerson } from './desk'

/** The kiosk's own front desk once opened, and how to close it. */
export interface OpenedFrontDesk {
  frontDesk: FrontDesk
  close(): Promise<void>
}

export interface OwnDesk {
  desk: KioskDesk
  /** Forgets alerts dismissed more than `keepDays` ago (the audit trail keeps the record of each stop). */
  pruneDismissed(keepDays: number): Promise<number>
  /** The kiosk's own retention (a site's engines apply the site's): visits that ended (or, still open, began) before `cutoff`; their ids. */
  purgeVisitsBefore(cutoff: number): Promise<string[]>
  /** Invites that ended before `cutoff`; how many. */
  purgeInvitesBefore(cutoff: number): Promise<number>
  /** A person forgotten by the kiosk itself (its retention, an erasure), not by a staff session. */
  forgetPerson(person: PersonKeys): Promise<{ visitIds: string[]; invites: number }>
  close(): Promise<void>
}

/**
 * A kiosk on its own keeps no acts for later: its visits name a person by the servers' id, so a
 * visitor whose enrollment still waits in the outbox checks in once it is delivered.
 */
function enrolledId(person: KioskPerson): string {
  if (person.personUuid === null) {
    throw new KioskError('INVALID_INPUT', 'This enrollment is waiting for the servers: check in once it has been delivered. Please see the front desk.')
  }
  return person.personUuid
}

/**
 * A kiosk on its own is a site of one: the front desk's rules, in-process, on its own frontdesk.db,
 * opened on first use. Sessions it issues are checked by the same `session` call a site answers,
 * so staff take one path; it has no other kiosks, so the site's calls answer NOT_CONFIGURED.
 */
export function ownDesk(open: () => Promise<OpenedFrontDesk>, kioskId: () => string): OwnDesk {
  let opening: Promise<OpenedFrontDesk> | null = null
  const local = async (): Promise<FrontDesk> => {
    // A failed open is not kept: the next call tries again.
    opening ??= open().catch((error: unknown) => {
      opening = null
      throw error
    })
    return (await opening).frontDesk
  }
  const desk: KioskDesk = {
    id: 'own',
    onSite: false,
    accountCount: async () => (await local()).accountCount(),
    createFirstAdmin: async (name, secret) => (await local()).createFirstAdmin(name, secret, kioskId()),
    signIn: async (name, secret) => (await local()).signIn(name, secret, kioskId()),
    session: async (token) => (await local()).session(token),
    signOut: async (token) => (await local()).signOut(token),
    screen: async (subject) => (await local()).screen({ ...subject, kioskId: kioskId() }),
    // On its own the look stays in the kiosk's settings and logo file (electron/services/branding).
    look: async () => Promise.reject(notOnSite()),
    listHostNames: async () => (await (await local()).listHosts()).map(({ id, name }) => ({ id, name })),
    checkIn: async ({ person, ...request }) => (await local()).checkIn({ ...request, person: { ...person, personUuid: enrolledId(person) }, kioskId: kioskId() }),
    checkOut: async (person) => (await local()).checkOut(enrolledId(person)),
    lastVisitOf: async (personUuid) => (await local()).lastVisitOf(personUuid),
    checkInvite: async (token) => (await local()).checkInvite(token),
    as: ({ account }) => ({
      listAccounts: async () => (await local()).listAccounts(),
      createAccount: async (name, role, secret) => (await local()).createAccount(name, role, secret),
      setAccountDisabled: async (name, disabled) => (await local()).setAccountDisabled(name, disabled),
      listWatchlist: async () => (await local()).listWatchlist(),
      addToWatchlist: async (entry) => (await local()).addToWatchlist({ ...entry, addedBy: account }),
      removeFromWatchlist: async (personUuid) => (await local()).removeFromWatchlist(personUuid),
      watchlistAlerts: async () => (await local()).watchlistAlerts(),
      dismissAlert: async (id) => (await local()).dismissAlert(id, account),
      inviteAlerts: async () => (await local()).inviteAlerts(),
      dismissInviteAlert: async (id) => (await local()).dismissInviteAlert(id, account),
      createPairingCode: async () => Promise.reject(notOnSite()),
      listKiosks: async () => Promise.reject(notOnSite()),
      removeKiosk: async () => Promise.reject(notOnSite()),
      setLook: async () => Promise.reject(notOnSite()),

      listHosts: async () => (await local()).listHosts(),
      addHost: async (fields) => (await local()).addHost(fields),
      updateHost: async (id, fields) => {
        const host = await (await local()).updateHost(id, fields)
        if (!host) throw new KioskError('NOT_FOUND', 'There is no such host.')
        return host
      },
      removeHost: async (id) => (await local()).removeHost(id),
      onSite: async () => ({ visits: await (await local()).onSite(), offline: null }),
      visitLog: async (filter, pageNo, pageSize) => (await local()).visitLog(filter, pageNo, pageSize),
      visitOverview: async (range) => (await local()).visitOverview(range),
      exportVisits: async (filter) => (await local()).exportVisits(filter),
      endVisit: async (id) => (await local()).endVisit(id),
      forgetPerson: async (person) => (await local()).forgetPerson(person),
      createInvite: async (request) => (await local()).createInvite({ ...request, createdBy: account }),
      listInvites: async (state) => (await local()).listInvites(state),
      revokeInvite: async (id) => (await local()).revokeInvite(id),
      // On its own the kiosk's host notifications are its own service's, with the keychain's secrets (features/host-notices.ts).
      hostNotices: async () => Promise.reject(notOnSite()),
      retryHostNotice: async () => Promise.reject(notOnSite()),
      hostNoticeSettings: async () => Promise.reject(notOnSite()),
      saveHostNoticeSettings: async () => Promise.reject(notOnSite()),
      setHostNoticeSecrets: async () => Promise.reject(notOnSite()),
    }),
  }
  return {
    desk,
    pruneDismissed: async (keepDays) => (await local()).pruneDismissed(keepDays),
    purgeVisitsBefore: async (cutoff) => (await local()).purgeVisitsBefore(cutoff),
    purgeInvitesBefore: async (cutoff) => (await local()).purgeInvitesBefore(cutoff),
    forgetPerson: async (person) => (await local()).forgetPerson(person),
    async close() {
      const opened = opening
      opening = null
      await (await opened?.catch(() => null))?.close()
    },
  }
}
