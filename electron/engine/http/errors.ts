/** An error with the HTTP status it should be answered with; the message is safe to show. */
export class HttpError extends Error {
  readonly status: number
  /** BioEngine per-item / error code; defaults to the HTTP status. */
  readonly code: number

  constructor(status: number, message: string, code?: number) {
    super(message)
    this.name = 'HttpError'
    this.status = status
    this.code = code ?? status
  }
}

/** Too much work waiting: answered 503 with Retry-After, never 500 (raised by admission and the face workers). */
export { OverloadError } from '../face/overload'
