/**
 * The face workers have more waiting work than the engine accepts: the request is refused, not
 * queued, and may be retried later. The HTTP layer answers it with 503 and a Retry-After header;
 * identify and verify report it per input (BioErrorCode.OVERLOADED).
 */
export class OverloadError extends Error {
  constructor(
    message: string,
    /** A rough wait, in whole seconds (at least 1), until the backlog has drained. */
    readonly retryAfterSeconds: number,
  ) {
    super(message)
    this.name = 'OverloadError'
  }
}
