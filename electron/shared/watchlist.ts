import { z } from 'zod'
import { email } from './email'

/**
 * The watchlist: persons staff asked to be told about. A watchlisted face that
 * enrolls or checks in is stopped with the visitor's plain "Please see the front desk", and staff
 * are alerted. These records are staff views only: nothing here ever reaches a visitor's result.
 */

export const watchlistEntrySchema = z.object({
  personUuid: z.uuid(),
  /** The person's e-mail when they were put on the list (kept: it still matches after the person is removed). */
  email: z.string().max(254),
  reason: z.string().max(500),
  /** The administrator's account name. */
  addedBy: z.string().max(64),
  addedAt: z.number(),
})
export type WatchlistEntry = z.infer<typeof watchlistEntrySchema>

const reason = z.string().trim().min(1, 'Give a reason: staff who meet this person read it.').max(500)

/** By the person's uuid (the Persons screen) or their e-mail (the Watchlist screen): one of the two. */
export const addToWatchlistInput = z
  .strictObject({ personUuid: z.uuid().optional(), email: email.optional(), reason })
  .refine((input) => (input.personUuid === undefined) !== (input.email === undefined), 'Name the person by their id or by their e-mail, not both.')

export const removeFromWatchlistInput = z.strictObject({ personUuid: z.uuid() })

/** Where a watchlisted person was stopped. */
export const watchlistPlaces = ['enrollment', 'check-in'] as const
export type WatchlistPlace = (typeof watchlistPlaces)[number]

/** What staff see when a watchlisted person is stopped: who, when, where, and why they are listed. No face, no score. */
export const watchlistAlertSchema = z.object({
  id: z.uuid(),
  at: z.number(),
  kioskId: z.string().max(128),
  /** The kiosk's name on its site (null on a kiosk on its own). */
  kioskName: z.string().max(64).nullable(),
  place: z.enum(watchlistPlaces),
  personUuid: z.uuid(),
  /** The e-mail on the watchlist entry. */
  email: z.string().max(254),
  /** The e-mail the visitor typed (an enrollment under another address), when it differs. */
  givenEmail: z.string().max(254).nullable(),
  reason: z.string().max(500),
  /** The first name the person last gave at a check-in (null when they never gave one): the desk can greet them by it. */
  firstName: z.string().max(80).nullable(),
})
export type WatchlistAlert = z.infer<typeof watchlistAlertSchema>

export const dismissWatchlistAlertInput = z.strictObject({ id: z.uuid() })
