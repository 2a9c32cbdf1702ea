import { randomBytes } from 'node:crypto'
import type { FrontDesk } from '../../records/frontdesk/front-desk'
import { SCOPE_TENANT_ADMIN } from '../../shared/api-requests'
import { KioskError } from '../../shared/errors'
import { frontDeskRoutes, SCOPE_FRONTDESK_KIOSK } from '../../shared/frontdesk-api'
import { FRONTDESK_AUTH, kioskClientId } from '../auth/front-desk-auth'
import { createBackOff } from '../auth/back-off'
import type { EngineApp } from '../http/zod-provider'
import { ClientRepository } from '../store/clients'

export interface PairingOptions {
  /** The tenant the site's kiosks enroll into (the engine's --tenant); none: pairing is refused. */
  tenant: string | undefined
  now?: () => number
  /** Wrong codes a peer may try before its first pause (default 5); then 1 s, doubling to 5 min. */
  freeFailures?: number
}

/** The scopes a paired kiosk's client holds: the person server and BioEngine, and the front desk. */
export const KIOSK_CLIENT_SCOPES = `${SCOPE_TENANT_ADMIN} ${SCOPE_FRONTDESK_KIOSK}`

/**
 * POST /pair: the one open front-desk call; the pairing code is the credential. Wrong, used and
 * expired codes count against the caller's address (back-off.ts, as the token call's client
 * authentication does), and a paused peer is refused before its body is read: 31^8 codes make
 * guessing hopeless at a doubling pause. On success the kiosk's OAuth client (`kiosk-<id>`, a new
 * random secret, shown only in this reply) is made in the transaction that uses the code up.
 */
export function pairRoute(app: EngineApp, frontDesk: Pick<FrontDesk, 'redeemPairingCode'>, options: PairingOptions): void {
  const peers = createBackOff({ freeFailures: options.freeFailures ?? 5, firstPauseMs: 1000, maxPauseMs: 5 * 60_000, maxKeys: 10_000, now: options.now ?? Date.now })
  const peerOf = (ip: string) => ip.replace(/^::ffff:/, '')
  const route = frontDeskRoutes.pair

  app.post(
    route.path,
    {
      config: { auth: FRONTDESK_AUTH[route.auth] },
      schema: { body: route.body, response: { 200: route.response } },
      onRequest: async (request) => {
        const wait = peers.waitMs(peerOf(request.ip))
        if (wait > 0) {
          const seconds = Math.max(1, Math.ceil(wait / 1000))
          throw new KioskError('TOO_MANY_ATTEMPTS', `Too many wrong pairing codes from this address: try again in ${seconds} s.`, { retryAfterSeconds: seconds })
        }
      },
    },
    async (request, reply) => {
      const tenant = options.tenant
      // Before the code is used up: a kiosk paired with no tenant could enroll no one.
      if (!tenant) throw new KioskError('NOT_CONFIGURED', 'This site was started without a tenant (--tenant), so it cannot take kiosks yet.')
      const peer = peerOf(request.ip)
      const secret = randomBytes(32).toString('base64url')
      peers.begin(peer)
      // A success is left 'abandoned', not 'succeeded': clearing the peer would let one good code launder guesses at others.
      let outcome: 'failed' | 'abandoned' = 'abandoned'
      try {
        const kiosk = await frontDesk.redeemPairingCode(request.body.code, request.body.name, async (tx, made) => {
          await new ClientRepository(tx).ensure(kioskClientId(made.id), secret, KIOSK_CLIENT_SCOPES)
        })
        void reply.header('Cache-Control', 'no-store')
        return { kioskId: kiosk.id, name: kiosk.name, clientId: kioskClientId(kiosk.id), clientSecret: secret, tenantCode: tenant }
      } catch (error) {
        if (error instanceof KioskError && error.code === 'REJECTED') outcome = 'failed'
        throw error
      } finally {
        peers.end(peer, outcome)
      }
    },
  )
}
