import { z } from 'zod'
import { engineStatusSchema } from './contract'
import { outboxStateSchema } from './outbox'

/** What the services push to the renderer without being asked: engine and outbox state. */
export const kioskEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('engine'), status: engineStatusSchema }),
  z.object({ type: z.literal('outbox'), state: outboxStateSchema }),
])
export type KioskEvent = z.infer<typeof kioskEventSchema>

/** The IPC channel (Electron) that carries events from main to the preload. */
export const EVENT_CHANNEL = 'kiosk:event'
