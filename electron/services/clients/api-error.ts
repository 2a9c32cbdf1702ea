import { KioskError, type ErrorCode } from '../../shared/errors'

/**
 * A failed call to the person server or the BioEngine: a KioskError (what the renderer sees) that
 * also keeps the HTTP status and the server's own error code for the services' decisions.
 */
export class ApiError extends KioskError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly status: number | null,
    readonly serverCode: number | null = null,
    options: { retryAfterSeconds?: number | undefined; requestId?: string | undefined } = {},
  ) {
    super(code, message, options)
    this.name = 'ApiError'
    this.requestId = options.requestId
  }

  /** The X-Request-ID the call went with, when it went: the server's log names the call by it. */
  requestId: string | undefined

  /** Worth trying again later: the server was unreachable, slow, overloaded or failing. */
  get retryable(): boolean {
    return this.code === 'UNREACHABLE' || this.code === 'TIMEOUT' || this.code === 'SERVER_ERROR'
  }
}

/** Our embedded engine's per-input BioEngine codes that the kiosk turns into capture guidance. */
const faceCodes: Record<number, ErrorCode> = { 1001: 'NO_FACE', 1002: 'MULTIPLE_FACES', 1003: 'BAD_IMAGE' }

/** The KioskError code for an HTTP failure status (and, for the BioEngine, its error code). */
export function codeForStatus(status: number, serverCode: number | null): ErrorCode {
  if (serverCode !== null && faceCodes[serverCode]) return faceCodes[serverCode]
  if (status === 401) return 'UNAUTHORIZED'
  if (status === 403) return 'FORBIDDEN'
  if (status === 404) return 'NOT_FOUND'
  if (status === 429 || status >= 500) return 'SERVER_ERROR'
  return 'REJECTED'
}

export function faceCode(serverCode: number | undefined): ErrorCode | null {
  return serverCode === undefined ? null : (faceCodes[serverCode] ?? null)
}
