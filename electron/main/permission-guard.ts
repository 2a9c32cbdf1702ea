import { isTrustedUrl, type TrustedOrigins } from './origins'

/**
 * Permission policy: the kiosk's own page may use the camera, and nothing else may use anything.
 * Plain functions (no 'electron' import), unit-tested in Node; main/index.ts passes them Electron's
 * setPermissionRequestHandler / setPermissionCheckHandler arguments.
 */

/** What setPermissionRequestHandler tells us about one request. */
export interface PermissionRequestFacts {
  permission: string
  /** The URL of the top-level page of the webContents making the request. */
  pageUrl: string
  /** details.requestingUrl: the last URL the requesting frame loaded. */
  requestingUrl: string | undefined
  isMainFrame: boolean
  /** For `media`: details.mediaTypes ('video' is the camera, 'audio' the microphone). */
  mediaTypes?: readonly string[] | undefined
  /** For `media`: details.securityOrigin. */
  securityOrigin?: string | undefined
}

/** Grants only a camera-only `media` request from the main frame of a kiosk page. */
export function isPermissionRequestAllowed(request: PermissionRequestFacts, trusted: TrustedOrigins): boolean {
  if (request.permission !== 'media') return false
  const types = request.mediaTypes ?? []
  if (types.length === 0 || !types.every((type) => type === 'video')) return false
  if (!request.isMainFrame) return false
  if (!isTrustedUrl(request.pageUrl, trusted) || !isTrustedUrl(request.requestingUrl, trusted)) return false
  return request.securityOrigin === undefined || isTrustedUrl(request.securityOrigin, trusted)
}

/** What setPermissionCheckHandler tells us about one check. */
export interface PermissionCheckFacts {
  permission: string
  /** The handler's requestingOrigin argument. */
  requestingOrigin: string
  /** The URL of the top-level page of the webContents, when there is one. */
  pageUrl?: string | undefined
  isMainFrame: boolean
  mediaType?: string | undefined
  securityOrigin?: string | undefined
  /** Set only for cross-origin sub frames. */
  embeddingOrigin?: string | undefined
}

/** The synchronous check Chromium makes before (and besides) a request: camera only, kiosk only. */
export function isPermissionCheckAllowed(check: PermissionCheckFacts, trusted: TrustedOrigins): boolean {
  if (check.permission !== 'media' || check.mediaType !== 'video') return false
  if (!check.isMainFrame || check.embeddingOrigin !== undefined) return false
  if (!isTrustedUrl(check.requestingOrigin, trusted)) return false
  if (check.pageUrl !== undefined && !isTrustedUrl(check.pageUrl, trusted)) return false
  return check.securityOrigin === undefined || isTrustedUrl(check.securityOrigin, trusted)
}
