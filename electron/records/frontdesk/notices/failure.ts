import { KioskError, type ErrorCode } from '../../../shared/errors'
import type { NoticeError } from '../../../shared/host-notices'

/**
 * A failed delivery and what it means: `permanent` stops the retries (a refusal that sending again
 * would only repeat: HTTP 4xx other than 408/429, SMTP 5xx); anything else is tried again with backoff.
 */
export class DeliveryFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly permanent: boolean,
  ) {
    super(message)
  }
}

/** The failure as stored and shown to staff, with any secret the channel used cut out (a server may echo what it was sent). */
export function describeFailure(error: unknown, secrets: ReadonlyArray<string | null>): { error: NoticeError; permanent: boolean } {
  const failure =
    error instanceof DeliveryFailure
      ? error
      : // The keychain locked or unavailable: kiosk-wide, fixed once by staff; every notice waits for it.
        error instanceof KioskError
        ? new DeliveryFailure(error.code, error.message, false)
        : new DeliveryFailure('INTERNAL', `The notice could not be sent: ${error instanceof Error ? error.message : String(error)}`, true)
  let message = failure.message
  for (const secret of secrets) if (secret && secret.length >= 4) message = message.split(secret).join('***')
  return { error: { code: failure.code, message: message.slice(0, 500) }, permanent: failure.permanent }
}
