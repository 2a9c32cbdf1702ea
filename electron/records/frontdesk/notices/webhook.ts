import { isIP } from 'node:net'
import { errors, request } from 'undici'
import type { ArrivalNotice } from '../../../shared/visits'
import { DeliveryFailure } from './failure'
import { signWebhook, signWebhookV1, WEBHOOK_HEADERS } from './signature'

/** The JSON a receiver gets: the arrival, nothing more (no face, no score, no e-mail address). */
export function webhookBody(noticeId: string, notice: ArrivalNotice): string {
  return JSON.stringify({
    type: 'visitor.arrived',
    id: noticeId,
    visitId: notice.visitId,
    host: { id: notice.host.id, name: notice.host.name },
    visitor: { name: notice.visitorName },
    purpose: notice.purpose,
    arrivedAt: notice.arrivedAt,
    kioskId: notice.kioskId,
  })
}

/**
 * POSTs the signed notice. 2xx: delivered. 408, 429, 5xx, a timeout or no connection: tried again.
 * Any other answer (3xx included: redirects are not followed, the URL should be the final one) is
 * a refusal that repeating would not change.
 */
export async function sendWebhook(url: string, secret: string, noticeId: string, notice: ArrivalNotice, signal: AbortSignal, now: () => number, timeoutMs: number): Promise<void> {
  const target = checkUrl(url)
  const body = webhookBody(noticeId, notice)
  const timestamp = Math.floor(now() / 1000)
  let status: number
  try {
    const reply = await request(target, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'identity-kiosk-host-notices',
        [WEBHOOK_HEADERS.timestamp]: String(timestamp),
        [WEBHOOK_HEADERS.signatureV1]: signWebhookV1(secret, timestamp, body),
        [WEBHOOK_HEADERS.signature]: signWebhook(secret, timestamp, noticeId, body),
        [WEBHOOK_HEADERS.delivery]: noticeId,
      },
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    })
    status = reply.statusCode
    await reply.body.dump({ limit: 64 * 1024 }).catch(() => {})
  } catch (error) {
    if (signal.aborted) throw error
    if (error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError || error instanceof errors.ConnectTimeoutError || (error instanceof Error && error.name === 'TimeoutError')) {
      throw new DeliveryFailure('TIMEOUT', `The webhook receiver did not answer within ${timeoutMs / 1000} s.`, false)
    }
    const code = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.name : 'error')
    throw new DeliveryFailure('UNREACHABLE', `The webhook receiver could not be reached (${code}).`, false)
  }
  if (status >= 200 && status < 300) return
  if (status === 408 || status === 429 || status >= 500) throw new DeliveryFailure('SERVER_ERROR', `The webhook receiver answered ${status}; it will be tried again.`, false)
  throw new DeliveryFailure('REJECTED', `The webhook receiver refused the notice (HTTP ${status}); check its URL and signing secret, then retry.`, true)
}

/** https, or http to this machine only (a local relay, tests): a notice names a visitor and must not cross a network in clear. */
function checkUrl(url: string): URL {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new DeliveryFailure('INVALID_INPUT', "The host's webhook address is not a URL.", true)
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '')
  const loopback = host === 'localhost' || (isIP(host) === 4 && host.startsWith('127.')) || host === '::1'
  if (parsed.protocol === 'https:' || (parsed.protocol === 'http:' && loopback)) return parsed
  throw new DeliveryFailure('INVALID_INPUT', "The host's webhook address must start with https:// (plain http only to this machine).", true)
}
