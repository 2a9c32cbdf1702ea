import type { KioskApi } from '@shared/kiosk-api'

declare global {
  interface Window {
    /** Present only inside Electron, exposed by the preload. */
    readonly kiosk?: KioskApi
  }
}
