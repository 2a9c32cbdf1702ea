import type { ErrorCode, KioskErrorData } from './errors'

const askStaff = 'The kiosk cannot do this right now. Please ask staff for help.'
const tryLater = 'The kiosk cannot reach its servers right now. Please try again in a few minutes, or ask staff.'

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
  // The kiosk's own engine is starting (or restarting): nothing is wrong with the network.
  ENGINE_UNAVAILABLE: 'The kiosk is starting. Please try again in a moment; if this keeps happening, ask staff.',
  UNREACHABLE: tryLater,
  TIMEOUT: tryLater,
  SERVER_ERROR: 'The kiosk’s servers have a problem right now. Please try again in a few minutes, or ask staff.',
  LIVENESS_REQUIRED: 'The kiosk needs to see that you are here in person. Please start again and follow the prompts on the screen, or ask staff for help.',
  LIVENESS_FAILED: 'The kiosk could not confirm that you are here in person. Please try again, following the prompts on the screen (blink or turn your head when asked), or ask staff for help.',
}

/** The sign-in form's own answer: it says nothing about anyone else, and the form is the next step. */
const signInRefused = 'That name and PIN or password do not match an active staff account.'

/**
 * The error as a visitor may see it; TOO_MANY_ATTEMPTS keeps its wait, which is the kiosk's own
 * text. UNAUTHORIZED is the sign-in's answer only for `signIn`: from any other call it is the
 * servers refusing the kiosk's credentials, which only staff can fix.
 */
export function visitorError(error: KioskErrorData, method?: string): KioskErrorData {
  if (error.code === 'TOO_MANY_ATTEMPTS') return error
  // A visitor may join a site only while nobody has set the kiosk up: the installer reads the site's
  // own words (a used, expired or wrong code; an address that does not answer), about no one else.
  if (method === 'joinSite') return error
  if (error.code === 'UNAUTHORIZED' && method === 'signIn') return { code: error.code, message: signInRefused }
  return { code: error.code, message: words[error.code] ?? askStaff }
}

/** What staff do next, by code, shown under the error's own (detailed) message. */
const nextSteps: Partial<Record<ErrorCode, string>> = {
  ENGINE_UNAVAILABLE: 'The kiosk is starting; try again in a moment. If the status bar says the engine failed, restart the kiosk.',
  UNREACHABLE: 'Check the network or the server, then try again.',
  TIMEOUT: 'The server is slow or down; try again in a moment.',
  SERVER_ERROR: 'The server had a problem; try again in a moment.',
  NOT_CONFIGURED: 'Ask staff to complete Settings.',
  KEYCHAIN_LOCKED: 'Unlock the computer’s keyring, then try again.',
  KEYCHAIN_UNAVAILABLE: 'The computer’s keyring is not running; ask staff.',
  NO_FACE: 'Make sure one face is clearly visible, then capture again.',
  MULTIPLE_FACES: 'Only the visitor should be in view; capture again.',
  BAD_IMAGE: 'Use a JPEG or PNG photo within the limits.',
  UNAUTHORIZED: 'The server refused the kiosk’s credentials; ask staff to check Settings.',
  FORBIDDEN: 'The kiosk is not allowed to do this; ask staff.',
  AUDIT_UNAVAILABLE: 'Nothing was done. Please ask staff.',
  LIVENESS_REQUIRED: 'Press “Try again” and follow the liveness prompts; for a person who cannot do them, press “Continue without liveness check” during the check and give the reason (recorded in the audit).',
  LIVENESS_FAILED: 'Press “Try again” and follow the prompts; for a person who cannot do them, press “Continue without liveness check” during the check and give the reason (recorded in the audit).',
}

/** The next step for staff after an error with this code, where there is one. */
export function staffNextStep(code: ErrorCode): string | null {
  return nextSteps[code] ?? null
}
