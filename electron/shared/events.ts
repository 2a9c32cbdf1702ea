import { z } from 'zod'
import { brandingSchema } from './branding'
import { engineStatusSchema } from './contract'
import { outboxStateSchema } from './outbox'

/** What the services push to the renderer without being asked: engine and outbox state, and the organisation's look. */
export const kioskEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('engine'), status: engineStatusSchema }),
  z.object({ type: z.literal('outbox'), state: outboxStateSchema }),
  z.object({ type: z.literal('branding'), branding: brandingSchema }),
])
export type KioskEvent = z.infer<typeof kioskEventSchema>

/** The IPC channel (Electron) that carries events from main to the preload. */
export const EVENT_CHANNEL = 'kiosk:event'
