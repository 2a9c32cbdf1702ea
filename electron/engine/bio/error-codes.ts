/**
 * BioEngine error codes carried in BioEngineError.code and in per-item errorCode fields.
 * HTTP-level failures use the HTTP status as their code; these describe one input's problem.
 */
export const BioErrorCode = {
  NO_FACE: 1001,
  MULTIPLE_FACES: 1002,
  BAD_IMAGE: 1003,
  BAD_TEMPLATE: 1004,
  UNKNOWN_TEMPLATE_TYPE: 1005,
  BAD_INPUT: 1006,
  TEMPLATE_TYPE_MISMATCH: 1008,
  LICENSE: 1010,
  /** The face workers have too much waiting work; retry later (identify/verify items). */
  OVERLOADED: 1011,
  /** The person already holds MAX_TEMPLATES_PER_PERSON templates. */
  TOO_MANY_TEMPLATES: 1012,
} as const

/** Thrown by enroll, create and match when the face workers are overloaded (HTTP 503 + Retry-After). */
export { OverloadError } from '../face/overload'

/** One input's failure: becomes a 400 for single-input calls, an item error in identify/verify. */
export class BioInputError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
    this.name = 'BioInputError'
  }
}
