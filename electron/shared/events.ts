import { z } from 'zod'
import { brandingSchema } from './branding'
import { engineStatusSchema } from './contract'
import { outboxStateSchema } from './outbox'
import { siteSyncStateSchema } from './site-sync'

/** What the services push to the renderer without being asked: engine and outbox state, the organisation's look, watchlist and invitation alerts raised and dismissed (staff only), and a site kiosk's hold on its site. */
export const kioskEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('engine'), status: engineStatusSchema }),
  z.object({ type: z.literal('outbox'), state: outboxStateSchema }),
  z.object({ type: z.literal('branding'), branding: brandingSchema }),
  // Only the alert's id: staff read its details through getWatchlistAlerts; a visitor's page never receives it.
  z.object({ type: z.literal('watchlist-alert'), alertId: z.uuid() }),
  // Dismissed (at this kiosk or, on a site, at any other): staff screens drop it at once.
  z.object({ type: z.literal('watchlist-alert-dismissed'), alertId: z.uuid() }),
  // The same for an invitation code the site would not count (read through getInviteAlerts).
  z.object({ type: z.literal('invite-alert'), alertId: z.uuid() }),
  z.object({ type: z.literal('invite-alert-dismissed'), alertId: z.uuid() }),
  // A site kiosk's hold on its site changed (online or not, the copy's age, acts waiting): counts only, no personal data.
  z.object({ type: z.literal('site-sync'), state: siteSyncStateSchema }),
])
export type KioskEvent = z.infer<typeof kioskEventSchema>

/** The IPC channel (Electron) that carries events from main to the preload. */
export const EVENT_CHANNEL = 'kiosk:event'
