import { realpath, readFile, stat } from 'node:fs/promises'
import { extname, isAbsolute, relative, resolve, sep } from 'node:path'
import { APP_HOST, APP_SCHEME } from './origins'

/**
 * The `app://kiosk/…` protocol: serves the built renderer (out/renderer) and nothing else. No
 * 'electron' import — main/index.ts hands it the Request that protocol.handle receives, and the
 * unit tests call it directly with a temporary folder.
 */

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
}

export function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream'
}

/** Headers every app:// response carries: the renderer's CSP, and no MIME sniffing. */
export function securityHeaders(contentSecurityPolicy: string): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy,
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cache-Control': 'no-cache',
  }
}

export type AssetLookup = { ok: true; relativePath: string } | { ok: false; status: 400 | 403 | 404 }

/**
 * Maps an app:// URL to a path relative to the renderer folder, refusing anything that could leave
 * it: another host, encoded separators or NUL, `..` segments (the URL parser already resolves plain
 * ones; encoded ones are caught here), dotfiles, and absolute or drive-letter paths.
 */
export function lookupAsset(requestUrl: string): AssetLookup {
  let url: URL
  try {
    url = new URL(requestUrl)
  } catch {
    return { ok: false, status: 400 }
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.hostname.toLowerCase() !== APP_HOST || url.port || url.username || url.password) return { ok: false, status: 404 }
  let path: string
  try {
    path = decodeURIComponent(url.pathname)
  } catch {
    return { ok: false, status: 400 }
  }
  if (path.includes('\0') || path.includes('\\')) return { ok: false, status: 400 }
  const segments = path.split('/').filter((segment) => segment !== '')
  if (segments.some((segment) => segment === '..' || segment.startsWith('.') || segment.includes(':'))) return { ok: false, status: 403 }
  return { ok: true, relativePath: segments.length === 0 ? 'index.html' : segments.join('/') }
}

/** Whether `child` is `root` itself or inside it (both absolute and normalized). */
function isInside(root: string, child: string): boolean {
  const rel = relative(root, child)
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel)
}

function plain(status: number, text: string, contentSecurityPolicy: string): Response {
  return new Response(text, { status, headers: { ...securityHeaders(contentSecurityPolicy), 'Content-Type': 'text/plain; charset=utf-8' } })
}

/**
 * Answers one request for the built renderer: GET/HEAD only, files under `rendererRoot` only (also
 * after resolving symlinks), with the CSP as a response header.
 */
export async function serveRendererRequest(request: Request, rendererRoot: string, contentSecurityPolicy: string): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method not allowed', contentSecurityPolicy)
  const lookup = lookupAsset(request.url)
  if (!lookup.ok) return plain(lookup.status, 'Not found', contentSecurityPolicy)
  const root = resolve(rendererRoot)
  const candidate = resolve(root, lookup.relativePath)
  if (!isInside(root, candidate)) return plain(403, 'Not found', contentSecurityPolicy)
  let file: string
  try {
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(candidate)])
    if (!isInside(realRoot, realFile)) return plain(403, 'Not found', contentSecurityPolicy)
    if (!(await stat(realFile)).isFile()) return plain(404, 'Not found', contentSecurityPolicy)
    file = realFile
  } catch {
    return plain(404, 'Not found', contentSecurityPolicy)
  }
  const headers = { ...securityHeaders(contentSecurityPolicy), 'Content-Type': contentTypeFor(file) }
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers })
  return new Response(new Uint8Array(await readFile(file)), { status: 200, headers })
}
