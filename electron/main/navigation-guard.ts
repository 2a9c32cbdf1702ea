import { isTrustedUrl, originOf, type TrustedOrigins } from './origins'

/**
 * Navigation and window-open policy, as plain functions (no 'electron' import) so they are
 * unit-tested in Node. main/index.ts wires them to `will-navigate`, `will-frame-navigate`,
 * `will-redirect` and `setWindowOpenHandler` of every webContents.
 */

/**
 * Origins that may be opened in the user's browser through shell.openExternal. Empty: the kiosk
 * links nowhere. Add an exact https origin here (and nothing else) if a screen ever needs one.
 */
export const EXTERNAL_ORIGIN_ALLOW_LIST: readonly string[] = []

/** A page of the kiosk may navigate only within the kiosk's own origins (app://kiosk, or the dev server). */
export function isNavigationAllowed(url: string, trusted: TrustedOrigins): boolean {
  return isTrustedUrl(url, trusted)
}

/** Whether `url` may be handed to the OS browser: https, no credentials, an allow-listed origin. */
export function isAllowedExternalUrl(url: string, allowList: readonly string[] = EXTERNAL_ORIGIN_ALLOW_LIST): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  if (parsed.protocol !== 'https:' || parsed.username || parsed.password) return false
  const origin = originOf(url)
  return origin !== null && allowList.includes(origin)
}

export interface WindowOpenDecision {
  /** Electron's answer to setWindowOpenHandler: the kiosk never opens a second window of its own. */
  action: 'deny'
  /** Whether to hand the URL to the OS browser instead (only allow-listed https origins). */
  openExternally: boolean
}

/** window.open, target=_blank and middle clicks: always denied in-app; maybe opened in the OS browser. */
export function decideWindowOpen(url: string, allowList: readonly string[] = EXTERNAL_ORIGIN_ALLOW_LIST): WindowOpenDecision {
  return { action: 'deny', openExternally: isAllowedExternalUrl(url, allowList) }
}
