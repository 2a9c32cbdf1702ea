import { KioskError, type ErrorCode } from '../../shared/errors'
import type { OutboxError } from '../../shared/outbox'
import type { Verdict } from '../../records/queue/job-runner'
import { ApiError } from '../clients/api-error'

/** The kiosk cannot authenticate right now, but an operator can fix that without touching the item. */
const BLOCKED: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['KEYCHAIN_LOCKED', 'KEYCHAIN_UNAVAILABLE', 'NOT_CONFIGURED', 'UNAUTHORIZED', 'ENGINE_UNAVAILABLE', 'AUDIT_UNAVAILABLE'])

/**
 * Failures that never reached a server: worth probing before trying anything else, and due again
 * as soon as a probe answers. ENGINE_UNAVAILABLE is embedded mode's "unreachable": the kiosk's own
 * engine is starting or restarting.
 */
export const CONNECTIVITY_CODES: readonly ErrorCode[] = ['UNREACHABLE', 'TIMEOUT', 'ENGINE_UNAVAILABLE']

/**
 * What a failed delivery means for its item (the one queue's Verdict): `retry` after a backoff
 * (`connectivity`: probe before anything else is sent), or `park` for an operator. Classification
 * (see README.md in this folder):
 * - ApiError retryable (UNREACHABLE, TIMEOUT, SERVER_ERROR = 5xx/429) → retry.
 * - BAD_REPLY → retry: a reply that is not the API (a captive portal, a broken proxy, a server
 *   mid-deploy) says nothing about this enrollment, and every step is idempotent.
 * - KEYCHAIN_LOCKED / KEYCHAIN_UNAVAILABLE / NOT_CONFIGURED / UNAUTHORIZED / ENGINE_UNAVAILABLE / AUDIT_UNAVAILABLE →
 *   retry: kiosk-wide conditions an operator fixes once (unlock, configure, re-enter the secret,
 *   engine restarting); parking would make them retry every queued item by hand afterwards.
 * - Any other KioskError (REJECTED 4xx, NO_FACE, MULTIPLE_FACES, BAD_IMAGE, FORBIDDEN, NOT_FOUND,
 *   INVALID_INPUT, …) → park: sending the same thing again would get the same answer.
 * - Anything else is a bug or a broken payload → park as INTERNAL, never retried blindly.
 */
export function classify(error: unknown): Verdict {
  if (error instanceof KioskError) {
    const failure: OutboxError = { code: error.code, message: error.message }
    if (error instanceof ApiError && error.retryable) return { action: 'retry', connectivity: CONNECTIVITY_CODES.includes(error.code), error: failure }
    if (error.code === 'BAD_REPLY' || BLOCKED.has(error.code)) return { action: 'retry', connectivity: CONNECTIVITY_CODES.includes(error.code), error: failure }
    // A KioskError that is not an ApiError but carries a transport code (a wrapper rethrowing one) is still transient.
    if (error.code === 'UNREACHABLE' || error.code === 'TIMEOUT' || error.code === 'SERVER_ERROR') {
      return { action: 'retry', connectivity: CONNECTIVITY_CODES.includes(error.code), error: failure }
    }
    return { action: 'park', error: failure }
  }
  const message = error instanceof Error ? error.message : String(error)
  return { action: 'park', error: { code: 'INTERNAL', message: `The enrollment could not be sent: ${message}` } }
}

/** True when an enrollment that failed with `error` belongs in the outbox rather than in front of the operator. */
export function isQueueable(error: unknown): boolean {
  return classify(error).action === 'retry'
}

/**
 * Removes the visitor's userId from a message before it is stored in clear or logged: server
 * messages sometimes echo the input, and the outbox keeps the userId only encrypted.
 */
export function redact(message: string, userId: string): string {
  const trimmed = userId.trim()
  if (trimmed.length < 3) return message.slice(0, 500)
  const escaped = trimmed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const encoded = encodeURIComponent(trimmed).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return message.replace(new RegExp(`${escaped}|${encoded}`, 'gi'), '<visitor>').slice(0, 500)
}
