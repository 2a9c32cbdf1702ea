import { ipcMain, type WebFrameMain } from 'electron'
import { methodNames } from '../shared/contract'
import { ipcChannel } from '../shared/kiosk-api'
import type { Envelope } from '../shared/errors'
import type { Dispatch } from '../services/dispatch'

/** A window's session key: its staff session lives in the services under it, never in the renderer. */
export const sessionKeyOf = (webContentsId: number): string => `wc:${webContentsId}`

/**
 * Binds every contract method to ipcMain.handle, refusing frames that are not the kiosk's
 * renderer; each call carries its window's session key, so the services check the role.
 */
export function bindIpc(dispatch: Dispatch, isTrustedFrame: (frame: WebFrameMain | null) => boolean): void {
  for (const method of methodNames) {
    ipcMain.handle(ipcChannel(method), async (event, input: unknown): Promise<Envelope> => {
      if (!isTrustedFrame(event.senderFrame)) {
        return { ok: false, error: { code: 'FORBIDDEN', message: 'This window may not call the kiosk.' } }
      }
      return dispatch(method, input, sessionKeyOf(event.sender.id))
    })
  }
}
