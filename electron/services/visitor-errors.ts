import type { ErrorCode, KioskErrorData } from '../shared/errors'

const askStaff = 'The kiosk cannot do this right now. Please ask staff for help.'

/**
 * What a visitor reads when something goes wrong: plain words and the next step, never a server's
 * message, an HTTP code, an engine state or anyone's identifiers. The full error goes to the log
 * and the staff views. Codes missing here get `askStaff`.
 */
const words: Partial<Record<ErrorCode, string>> = {
  INVALID_INPUT: 'Something in the form is not right. Check your e-mail address and try again.',
  FORBIDDEN: 'Staff must sign in to do this.',
  NO_FACE: 'No face was found in the photo. Look straight at the camera and try again.',
  MULTIPLE_FACES: 'More than one face is in the photo. Make sure only you are in view and try again.',
  BAD_IMAGE: 'The photo could not be used. Please take it again.',
  UNREACHABLE: 'The kiosk cannot reach its servers right now. Please try again in a few minutes, or ask staff.',
  TIMEOUT: 'The kiosk cannot reach its servers right now. Please try again in a few minutes, or ask staff.',
  // The sign-in form's own answers: they say nothing about anyone else.
  UNAUTHORIZED: 'That name and PIN or password do not match an active staff account.',
}

/** The error as a visitor may see it; TOO_MANY_ATTEMPTS keeps its wait, which is the kiosk's own text. */
export function visitorError(error: KioskErrorData): KioskErrorData {
  if (error.code === 'TOO_MANY_ATTEMPTS') return error
  return { code: error.code, message: words[error.code] ?? askStaff }
}
