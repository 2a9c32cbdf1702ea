import { createHmac, timingSafeEqual } from 'node:crypto'

/** The headers of a signed webhook POST (lower case, as Node's http receives them). */
export const WEBHOOK_HEADERS = {
  /** Unix seconds when this attempt was signed (each retry is signed afresh). */
  timestamp: 'x-kiosk-timestamp',
  /** `v1=<hex HMAC-SHA256 of "<timestamp>.<body>">` with the kiosk's signing secret. */
  signature: 'x-kiosk-signature',
  /** The notice's id: the same on every retry, so a receiver can drop a repeat. */
  delivery: 'x-kiosk-delivery',
} as const

/** How old a signed timestamp a receiver should accept (and how far in the future, for clock skew). */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60

/** `v1=` + HMAC-SHA256 over `${timestamp}.${body}`: the timestamp is signed, so it cannot be replaced to replay an old body. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex')}`
}

/**
 * What a receiver does with a POST (documented in README.md): recompute the signature over the raw
 * body, compare in constant time, and refuse a timestamp more than five minutes away from its own
 * clock (a replayed request). Returns why it refuses, or null when the request is genuine and fresh.
 */
export function checkWebhook(
  secret: string,
  headers: { timestamp: string | undefined; signature: string | undefined },
  rawBody: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = WEBHOOK_TOLERANCE_SECONDS,
): 'unsigned' | 'bad-signature' | 'stale' | null {
  const { timestamp, signature } = headers
  if (!timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return 'unsigned'
  const expected = Buffer.from(signWebhook(secret, Number(timestamp), rawBody))
  const given = Buffer.from(signature)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad-signature'
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return 'stale'
  return null
}
