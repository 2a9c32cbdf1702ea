import type { KioskApi } from '../../electron/shared/kiosk-api'

declare global {
  interface Window {
    /** Present only inside Electron, exposed by the preload. */
    readonly kiosk?: KioskApi
  }
}
