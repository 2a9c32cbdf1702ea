import { z } from 'zod'

/** Stable error codes: the UI keys its guidance on these, so never rename one. */
export const errorCodes = [
  'INVALID_INPUT',
  'UNKNOWN_METHOD',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'NOT_CONFIGURED',
  'ENGINE_UNAVAILABLE',
  /** The server could not be reached (connection refused, DNS, network down). */
  'UNREACHABLE',
  'TIMEOUT',
  /** The server answered 5xx or 429: worth retrying later. */
  'SERVER_ERROR',
  /** The server refused the request (4xx); the message carries its reason. */
  'REJECTED',
  /** The server's reply did not match the API. */
  'BAD_REPLY',
  /** Face problems in a sample or image, for capture guidance. */
  'NO_FACE',
  'MULTIPLE_FACES',
  'BAD_IMAGE',
  'KEYCHAIN_UNAVAILABLE',
  'KEYCHAIN_LOCKED',
  /** The audit trail cannot be written: the act was not done (an act that cannot be audited does not happen). */
  'AUDIT_UNAVAILABLE',
  /** Too many failed sign-ins for this account: wait before the next try (the message says how long). */
  'TOO_MANY_ATTEMPTS',
  /** The tenant requires liveness and the capture came without its evidence (or with a stale challenge). */
  'LIVENESS_REQUIRED',
  /** The liveness evidence was judged and did not show a live person (the message says which check). */
  'LIVENESS_FAILED',
  'INTERNAL',
] as const

export const errorCodeSchema = z.enum(errorCodes)
export type ErrorCode = z.infer<typeof errorCodeSchema>

/** Which of a request's images an error is about (Face match sends two), so the screen can point at it. */
export const errorAboutSchema = z.enum(['image1', 'image2'])
export type ErrorAbout = z.infer<typeof errorAboutSchema>

export const kioskErrorSchema = z.object({
  code: errorCodeSchema,
  message: z.string(),
  /** TOO_MANY_ATTEMPTS: how long until the next try is taken, so a form can count it down. */
  retryAfterSeconds: z.number().int().positive().optional(),
  about: errorAboutSchema.optional(),
})
export type KioskErrorData = z.infer<typeof kioskErrorSchema>

/** The one error type every side throws and catches; it crosses IPC and the web bridge as plain data. */
export class KioskError extends Error {
  readonly code: ErrorCode
  readonly retryAfterSeconds: number | undefined
  readonly about: ErrorAbout | undefined

  constructor(code: ErrorCode, message: string, options: { retryAfterSeconds?: number | undefined; about?: ErrorAbout | undefined } = {}) {
    super(message)
    this.name = 'KioskError'
    this.code = code
    this.retryAfterSeconds = options.retryAfterSeconds
    this.about = options.about
  }

  toJSON(): KioskErrorData {
    return {
      code: this.code,
      message: this.message,
      ...(this.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: this.retryAfterSeconds }),
      ...(this.about ? { about: this.about } : {}),
    }
  }

  static from(data: KioskErrorData): KioskError {
    return new KioskError(data.code, data.message, { retryAfterSeconds: data.retryAfterSeconds, about: data.about })
  }
}

/**
 * What a handler call returns over any transport. Electron's ipcMain.handle drops custom error
 * fields on rejection, so errors travel as values and are re-thrown on the calling side.
 */
export const envelopeSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: kioskErrorSchema }),
])
export type Envelope = z.infer<typeof envelopeSchema>

/** Turns an envelope from a transport back into a value or a thrown KioskError. */
export function unwrapEnvelope(raw: unknown): unknown {
  const parsed = envelopeSchema.safeParse(raw)
  if (!parsed.success) {
    throw new KioskError('INTERNAL', 'The kiosk service sent a reply that could not be read.')
  }
  if (!parsed.data.ok) throw KioskError.from(parsed.data.error)
  return parsed.data.value
}
