import type { KioskApi } from '../../../electron/shared/kiosk-api'
import { createWebBridge, takeLaunchToken } from './web-bridge'

/** Picks the transport once, at start-up: the Electron preload's API if present, else the web bridge. */
export const kiosk: KioskApi = window.kiosk ?? createWebBridge(takeLaunchToken())

export const transport: 'ipc' | 'web' = window.kiosk ? 'ipc' : 'web'
