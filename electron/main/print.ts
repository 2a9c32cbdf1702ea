import { ipcMain, type WebFrameMain } from 'electron'
import { PRINT_CHANNEL, type PrintResult } from '../shared/shell-print'

/**
 * The print path of the shell: the asking window prints itself through the system's dialog (never
 * silently: the person at the kiosk chooses the printer, or cancels). Only the kiosk's own top
 * frame may ask, as for the services' channels.
 */
export function bindPrint(isTrustedFrame: (frame: WebFrameMain | null) => boolean): void {
  ipcMain.handle(PRINT_CHANNEL, (event): Promise<PrintResult> | PrintResult => {
    if (!isTrustedFrame(event.senderFrame)) return { ok: false, reason: 'This window may not print.' }
    return new Promise((resolve) => {
      event.sender.print({ silent: false, printBackground: true }, (success, failureReason) => resolve({ ok: success, reason: success ? null : failureReason || 'not printed' }))
    })
  })
}
