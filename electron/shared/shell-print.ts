/**
 * Printing in the Electron shell: the renderer asks over this channel (the preload exposes it as
 * `window.kioskShell.print`), and the main process prints the asking window with
 * `webContents.print` (the system's print dialog). On the web host the page uses `window.print()`.
 */
export const PRINT_CHANNEL = 'kiosk-shell:print'

export interface PrintResult {
  ok: boolean
  /** Why nothing printed (cancelled, failed, or the window may not ask); null when it printed. */
  reason: string | null
}
