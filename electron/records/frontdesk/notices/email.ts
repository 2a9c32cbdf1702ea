import nodemailer from 'nodemailer'
import type { SmtpSettings } from '../../../shared/host-notices'
import type { ArrivalNotice } from '../../../shared/visits'
import { DeliveryFailure } from './failure'

/** Control characters out (a name is one line), length bounded. */
const line = (text: string, max = 200) => text.replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, ' ').trim().slice(0, max)

/** The e-mail a host gets: short, plain text, the arrival only (no face, no score, no visitor e-mail). */
export function arrivalEmail(notice: ArrivalNotice): { subject: string; text: string } {
  const visitor = line(notice.visitorName) || 'Your visitor'
  return {
    subject: `${visitor} has arrived`,
    text: [
      `Hello ${line(notice.host.name)},`,
      '',
      `${visitor} has arrived at the front desk to see you.`,
      '',
      `Purpose: ${line(notice.purpose) || '-'}`,
      `Arrived: ${notice.arrivedAt}`,
      `Kiosk: ${line(notice.kioskId, 128)}`,
      '',
      'Identity Kiosk',
    ].join('\n'),
  }
}

/**
 * Sends the notice through the configured SMTP server. The Message-ID is the notice's own, the same
 * on every retry, so a mail system or client can recognise a repeat after a crash mid-send.
 * SMTP 5xx is a refusal (a wrong address, a refused login): not retried. 4xx, timeouts and lost
 * connections are tried again.
 */
export async function sendEmail(smtp: SmtpSettings, password: string | null, to: string, noticeId: string, notice: ArrivalNotice, signal: AbortSignal, timeoutMs: number): Promise<void> {
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.security === 'tls',
    requireTLS: smtp.security === 'starttls',
    ignoreTLS: smtp.security === 'none',
    auth: smtp.user ? { user: smtp.user, pass: password ?? '' } : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
    // nodemailer logs nothing unless asked; say so, so no envelope or credential reaches a log.
    logger: false,
    debug: false,
  })
  const abort = () => transport.close()
  signal.addEventListener('abort', abort, { once: true })
  try {
    const { subject, text } = arrivalEmail(notice)
    await transport.sendMail({ from: smtp.from, to, subject, text, messageId: `<${noticeId}@host-notices.identity-kiosk.invalid>` })
  } catch (error) {
    if (signal.aborted) throw signal.reason
    throw smtpFailure(error)
  } finally {
    signal.removeEventListener('abort', abort)
    transport.close()
  }
}

/** nodemailer's error as a delivery failure: the SMTP reply code decides when there is one. */
function smtpFailure(error: unknown): DeliveryFailure {
  const e = error as { code?: string; responseCode?: number; response?: string; message?: string }
  const reply = (e.response ?? e.message ?? '').slice(0, 200)
  if (typeof e.responseCode === 'number' && e.responseCode >= 500) {
    const login = e.code === 'EAUTH'
    return new DeliveryFailure('REJECTED', login ? `The SMTP server refused the login (${reply}); check the user and password, then retry.` : `The SMTP server refused the e-mail: ${reply}`, true)
  }
  if (typeof e.responseCode === 'number' && e.responseCode >= 400) return new DeliveryFailure('SERVER_ERROR', `The SMTP server asked to try later: ${reply}`, false)
  if (e.code === 'ETIMEDOUT') return new DeliveryFailure('TIMEOUT', 'The SMTP server did not answer in time.', false)
  return new DeliveryFailure('UNREACHABLE', `The SMTP server could not be reached (${e.code ?? 'connection failed'}).`, false)
}
