import type { PrintResult } from '@shared/shell-print'

/** The shell's print, where the kiosk runs in Electron (the preload exposes it); see electron/main/print.ts. */
interface KioskShell {
  print(): Promise<PrintResult>
}

declare global {
  interface Window {
    kioskShell?: KioskShell
  }
}

/**
 * Opens the print dialog for the page; the print styles (PrintCard.css) leave only the card on
 * paper. Electron prints through its webContents (the shell's dialog); the web host's page through
 * the browser's own.
 */
export async function printPage(): Promise<void> {
  if (window.kioskShell) {
    await window.kioskShell.print()
    return
  }
  window.print()
}
