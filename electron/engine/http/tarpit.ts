import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyReply } from 'fastify'

export interface Tarpit {
  /** Waits before a refusal is sent; when too many already wait, sends it at once and closes the connection. */
  hold(reply: FastifyReply): Promise<void>
}

/**
 * Refusals to callers already told to back off are answered slowly: a flood of them then runs at
 * the pace of its connections, not as fast as the event loop can answer 429s (which is what delays
 * everyone else). At most `maxHeld` wait; beyond that the refusal is immediate and the connection
 * closed, so a flooder must reconnect for each try.
 */
export function createTarpit(maxHeld: number, holdMs: number): Tarpit {
  let held = 0
  return {
    async hold(reply) {
      if (held >= maxHeld) {
        void reply.header('Connection', 'close')
        return
      }
      held++
      try {
        await sleep(holdMs)
      } finally {
        held--
      }
    },
  }
}
