import { contract, methodNames } from '@shared/contract'
import type { KioskApi } from '@shared/kiosk-api'
import { awaited } from '../camera/presence'
import { createWebBridge, takeLaunchToken } from './web-bridge'

/** Picks the transport once, at start-up: the Electron preload's API if present, else the web bridge. */
export const transport: 'ipc' | 'web' = window.kiosk ? 'ipc' : 'web'

const api: KioskApi = window.kiosk ?? createWebBridge(takeLaunchToken())

// In a browser the page gets the same frozen window.kiosk the Electron preload exposes. It grants
// nothing the page's own code could not already do: every call is checked against this tab's
// session by the services, whoever makes it (the e2e tests call it from the page as a visitor).
if (transport === 'web') Object.defineProperty(window, 'kiosk', { value: api, writable: false, configurable: false, enumerable: false })

const forbiddenListeners = new Set<() => void>()

/**
 * Hears every call the services refused with FORBIDDEN: the page's idea of its session is then
 * out of date (it expired, or the account was disabled). Returns the function that stops it.
 */
export function onForbidden(listener: () => void): () => void {
  forbiddenListeners.add(listener)
  return () => forbiddenListeners.delete(listener)
}

function isForbidden(error: unknown): boolean {
  // Duck-typed: an error that crossed Electron's context bridge may have lost its class.
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'FORBIDDEN'
}

/** The API the screens use: the transport's, with FORBIDDEN refusals reported to onForbidden and calls awaited as presence. */
export const kiosk: KioskApi = Object.freeze({
  ...Object.fromEntries(
    methodNames.map((method) => [
      method,
      async (input: unknown) => {
        const call = () => (api[method] as (input: unknown) => Promise<unknown>)(input)
        try {
          // A status poll is nobody's wait; any other call is someone waiting for its answer.
          return await ('poll' in contract[method] ? call() : awaited(call))
        } catch (error) {
          if (isForbidden(error)) for (const listener of forbiddenListeners) listener()
          throw error
        }
      },
    ]),
  ),
  onEvent: (listener: Parameters<KioskApi['onEvent']>[0]) => api.onEvent(listener),
}) as KioskApi
