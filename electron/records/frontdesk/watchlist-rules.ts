import { randomUUID } from 'node:crypto'
import type { FrontDesk } from './front-desk'
import { announceSafely, type RulesContext } from './records'
import { emailKey, uuidKey, type StoredAlert } from './watchlist-repository'

type WatchlistRules = Pick<FrontDesk, 'listWatchlist' | 'addToWatchlist' | 'removeFromWatchlist' | 'screen' | 'watchlistAlerts' | 'dismissAlert' | 'pruneDismissed'>

/**
 * One watchlist for every kiosk of the site. A listed person is found by any uuid their face or
 * e-mail pointed to, else by the e-mail they were listed with (kept: it still matches after the
 * person is removed from the person server). Each stop raises an alert that names the kiosk, kept
 * until someone dismisses it, once for all kiosks; alerts are announced after they are committed.
 */
export function watchlistRules(context: RulesContext): WatchlistRules {
  const { records, now } = context

  const announce = announceSafely(context.announce)

  return {
    listWatchlist: () => records.watchlist.list(),

    async addToWatchlist(entry) {
      const listed = { ...entry, personUuid: uuidKey(entry.personUuid), addedAt: now() }
      await records.watchlist.put(listed)
      return listed
    },

    removeFromWatchlist: (personUuid) => records.watchlist.remove(personUuid),

    async screen(subject) {
      let entry = null
      for (const uuid of subject.personUuids) if ((entry = await records.watchlist.byPerson(uuid))) break
      if (!entry && subject.givenEmail !== null) entry = await records.watchlist.byEmail(subject.givenEmail)
      if (!entry) return { screening: 'clear' }
      // An enrollment under another address than the listed one: staff are told which was typed.
      const givenEmail = subject.givenEmail !== null && emailKey(subject.givenEmail) !== emailKey(entry.email) ? subject.givenEmail : null
      const alert: StoredAlert = {
        id: randomUUID(),
        at: now(),
        // A call with no kiosk behind it (a tool on the site) names none.
        kioskId: subject.kioskId ?? '',
        kioskName: subject.kioskId === null ? null : await records.kiosks.nameOf(subject.kioskId),
        place: subject.place,
        personUuid: entry.personUuid,
        email: entry.email,
        givenEmail,
        reason: entry.reason,
      }
      await records.watchlist.insertAlert(alert)
      announce({ type: 'watchlist-alert', alertId: alert.id })
      return { screening: 'watchlisted', alertId: alert.id, personUuid: entry.personUuid, email: entry.email }
    },

    // Read from the visits each time: a name given at a later check-in shows on an older alert too.
    watchlistAlerts: async () => Promise.all((await records.watchlist.openAlerts()).map(async (alert) => ({ ...alert, firstName: await records.visits.lastFirstNameOf(alert.personUuid) }))),

    async dismissAlert(id, by) {
      const dismissed = await records.watchlist.dismiss(id, by, now())
      if (dismissed) announce({ type: 'watchlist-alert-dismissed', alertId: id })
      return dismissed
    },

    // The invitation alerts too (invites-rules.ts): dismissed alerts are kept alike, whatever raised them.
    async pruneDismissed(keepDays) {
      const before = now() - keepDays * 86_400_000
      return (await records.watchlist.pruneDismissedBefore(before)) + (await records.inviteAlerts.pruneDismissedBefore(before))
    },
  }
}
