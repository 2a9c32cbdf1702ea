import { createHmac, timingSafeEqual } from 'node:crypto'

/** The headers of a signed webhook POST (lower case, as Node's http receives them). */
export const WEBHOOK_HEADERS = {
  /** Unix seconds when this attempt was signed (each retry is signed afresh). */
  timestamp: 'x-kiosk-timestamp',
  /** `v1=<hex HMAC-SHA256 of "<timestamp>.<body>">`: what receivers written before v2 check; it does not cover the delivery id. */
  signatureV1: 'x-kiosk-signature',
  /** `v2=<hex HMAC-SHA256 of "<timestamp>.<delivery id>.<body>">` with the signing secret. */
  signature: 'x-kiosk-signature-v2',
  /** The notice's id: the same on every retry, so a receiver can drop a repeat. Covered by the signature. */
  delivery: 'x-kiosk-delivery',
} as const

/** How old a signed timestamp a receiver should accept (and how far in the future, for clock skew). */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60

/** A delivery id as it may appear in the signed text: no dot, so the three parts cannot be shifted into one another. */
const DELIVERY_ID = /^[A-Za-z0-9_-]{1,128}$/

/**
 * `v2=` + HMAC-SHA256 over `${timestamp}.${deliveryId}.${body}`: the timestamp and the delivery id
 * are signed with the body, so neither can be replaced: an old request cannot be replayed with a
 * fresh timestamp, nor passed off as another delivery to get past a receiver's repeat check.
 */
export function signWebhook(secret: string, timestamp: number, deliveryId: string, body: string): string {
  if (!DELIVERY_ID.test(deliveryId)) throw new Error('A webhook delivery id is letters, digits, - and _ only.')
  return `v2=${createHmac('sha256', secret).update(`${timestamp}.${deliveryId}.${body}`, 'utf8').digest('hex')}`
}

/** `v1=` + HMAC-SHA256 over `${timestamp}.${body}`: still sent beside v2, so a receiver written against it keeps working. */
export function signWebhookV1(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex')}`
}

/**
 * What a receiver does with a POST (documented in electron/services/host-notices/README.md):
 * recompute the signature over the timestamp, the delivery id and the raw body, compare in
 * constant time, and refuse a timestamp more than five minutes away from its own clock (a replayed
 * request). Returns why it refuses, or null when the request is genuine and fresh.
 */
export function checkWebhook(
  secret: string,
  headers: { timestamp: string | undefined; signature: string | undefined; delivery: string | undefined },
  rawBody: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = WEBHOOK_TOLERANCE_SECONDS,
): 'unsigned' | 'bad-signature' | 'stale' | null {
  const { timestamp, signature, delivery } = headers
  if (!timestamp || !signature || !delivery || !/^\d{1,12}$/.test(timestamp) || !DELIVERY_ID.test(delivery)) return 'unsigned'
  const expected = Buffer.from(signWebhook(secret, Number(timestamp), delivery, rawBody))
  const given = Buffer.from(signature)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad-signature'
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return 'stale'
  return null
}
