import { randomBytes } from 'node:crypto'
import type { FrontDesk } from '../../records/frontdesk/front-desk'
import { mergeKioskRecords, type MergeResult } from '../../records/frontdesk/merge-rules'
import { SCOPE_TENANT_ADMIN } from '../../shared/api-requests'
import { KioskError } from '../../shared/errors'
import { frontDeskRoutes, PAIR_PLAIN_BODY_LIMIT, PAIRING_CODE_HEADER, pairingCode, SCOPE_FRONTDESK_KIOSK } from '../../shared/frontdesk-api'
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

/**
 * The most a pairing request may carry. Without records it is a few hundred bytes; a kiosk that ran
 * on its own may bring all it kept (its visits above all: some 400 bytes each, so a year of a busy
 * door is tens of MB), and it is read once per kiosk, in one transaction. Larger: the kiosk is told
 * so, pairs nothing, and keeps its records.
 */
export const PAIR_BODY_LIMIT = 64 * 1024 * 1024

/** The scopes a paired kiosk's client holds: the person server and BioEngine, and the front desk. */
export const KIOSK_CLIENT_SCOPES = `${SCOPE_TENANT_ADMIN} ${SCOPE_FRONTDESK_KIOSK}`

/**
 * POST /pair: the one open front-desk call; the pairing code is the credential. Wrong, used and
 * expired codes count against the caller's address (back-off.ts, as the token call's client
 * authentication does), and a paused peer is refused before its body is read: 31^8 codes make
 * guessing hopeless at a doubling pause. On success the kiosk's OAuth client (`kiosk-<id>`, a new
 * random secret, shown only in this reply) is made in the transaction that uses the code up,
 * and so are the records a kiosk that ran on its own brings (merge-rules.ts): all or nothing.
 */
export function pairRoute(app: EngineApp, frontDesk: Pick<FrontDesk, 'redeemPairingCode' | 'pairingCodeOpen'>, options: PairingOptions): void {
  const now = options.now ?? Date.now
  const peers = createBackOff({ freeFailures: options.freeFailures ?? 5, firstPauseMs: 1000, maxPauseMs: 5 * 60_000, maxKeys: 10_000, now })
  const peerOf = (ip: string) => ip.replace(/^::ffff:/, '')
  const route = frontDeskRoutes.pair

  app.post(
    route.path,
    {
      config: { auth: FRONTDESK_AUTH[route.auth] },
      bodyLimit: PAIR_BODY_LIMIT,
      schema: { body: route.body, response: { 200: route.response } },
      onRequest: async (request) => {
        const wait = peers.waitMs(peerOf(request.ip))
        if (wait > 0) {
          const seconds = Math.max(1, Math.ceil(wait / 1000))
          throw new KioskError('TOO_MANY_ATTEMPTS', `Too many wrong pairing codes from this address: try again in ${seconds} s.`, { retryAfterSeconds: seconds })
        }
        // Only a caller holding a code that would pair now may send more than a plain pairing (a kiosk's records).
        const length = Number(request.headers['content-length'])
        if (Number.isInteger(length) && length <= PAIR_PLAIN_BODY_LIMIT) return
        const named = pairingCode.safeParse(request.headers[PAIRING_CODE_HEADER])
        if (named.success && (await frontDesk.pairingCodeOpen(named.data))) return
        // A wrong code here counts as a wrong code in the body would.
        if (request.headers[PAIRING_CODE_HEADER] !== undefined) peers.end(peerOf(request.ip), 'failed')
        throw new KioskError('INVALID_INPUT', `A pairing that brings records names a pairing code that is still good in ${PAIRING_CODE_HEADER}; without one it carries at most ${PAIR_PLAIN_BODY_LIMIT / 1024} KB.`)
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
        const brought = request.body.records
        const named = request.headers[PAIRING_CODE_HEADER]
        if (named !== undefined && pairingCode.safeParse(named).data !== request.body.code) throw new KioskError('INVALID_INPUT', `${PAIRING_CODE_HEADER} and the body name different pairing codes.`)
        let merged: MergeResult | null = null
        const kiosk = await frontDesk.redeemPairingCode(request.body.code, request.body.name, async (tx, made) => {
          await new ClientRepository(tx).ensure(kioskClientId(made.id), secret, KIOSK_CLIENT_SCOPES)
          if (brought) merged = await mergeKioskRecords(tx, made, brought, now())
        })
        void reply.header('Cache-Control', 'no-store')
        const keptApart = (merged as MergeResult | null)?.keptApart
        return { kioskId: kiosk.id, name: kiosk.name, clientId: kioskClientId(kiosk.id), clientSecret: secret, tenantCode: tenant, ...(keptApart ? { keptApart } : {}) }
      } catch (error) {
        if (error instanceof KioskError && error.code === 'REJECTED') outcome = 'failed'
        throw error
      } finally {
        peers.end(peer, outcome)
      }
    },
  )
}
