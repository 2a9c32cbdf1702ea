import { randomBytes, timingSafeEqual } from 'node:crypto'
import { KioskError } from '../shared/errors'
import { signInInput } from '../shared/staff'
import { securityHeaders } from './app-protocol'
import { PIN_HOST, PIN_ORIGIN, APP_SCHEME } from './origins'

/**
 * The prompt that leaves kiosk mode, served by main on its own origin (app://staff-pin): a
 * sandboxed window with no preload and no IPC, whose page POSTs an administrator's name and PIN or
 * password back to this handler. No 'electron' import: unit-tested in Node with real Request objects.
 *
 * Why it is safe: the kiosk's page (app://kiosk) cannot reach this origin (its CSP's connect-src is
 * 'self'; navigation away from the kiosk is denied), each prompt has a one-time session token that
 * only its own URL carries, and the credentials are checked by the staff accounts (scrypt, per-account
 * back-off, audited) — the same sign-in as everywhere else, not a second secret.
 */

export const PIN_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Leave kiosk mode</title>
    <link rel="stylesheet" href="pin.css" />
  </head>
  <body>
    <main>
      <h1>Leave kiosk mode</h1>
      <form id="pin-form" autocomplete="off">
        <p class="hint">An administrator signs in to leave.</p>
        <label for="name">Administrator name</label>
        <input id="name" name="name" type="text" maxlength="64" autocapitalize="off" spellcheck="false" required autofocus />
        <label for="secret">PIN or password</label>
        <input id="secret" name="secret" type="password" maxlength="128" required />
        <p id="message" role="alert"></p>
        <div class="actions">
          <button type="button" id="cancel">Cancel</button>
          <button type="submit" id="unlock">Unlock</button>
        </div>
      </form>
    </main>
    <script src="pin.js"></script>
  </body>
</html>
`

const SCRIPT = `'use strict'
const session = new URLSearchParams(location.search).get('s') || ''
const form = document.getElementById('pin-form')
const nameInput = document.getElementById('name')
const secretInput = document.getElementById('secret')
const unlockButton = document.getElementById('unlock')
const message = document.getElementById('message')
async function post(path, body) {
  try {
    const reply = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session, ...body }) })
    return await reply.json()
  } catch {
    return { ok: false, message: 'The prompt could not reach the kiosk.' }
  }
}
form.addEventListener('submit', async (event) => {
  event.preventDefault()
  unlockButton.disabled = true
  message.textContent = 'Checking…'
  const reply = await post('/unlock', { name: nameInput.value, secret: secretInput.value })
  secretInput.value = ''
  unlockButton.disabled = false
  message.textContent = reply.ok ? 'Unlocked.' : reply.message
  secretInput.focus()
})
document.getElementById('cancel').addEventListener('click', () => void post('/cancel', {}))
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') void post('/cancel', {})
})
`

const STYLE = `body { margin: 0; font: 16px system-ui, sans-serif; background: #f5f6f8; color: #111; }
main { padding: 20px 24px; }
h1 { font-size: 20px; margin: 0 0 8px; }
.hint { margin: 0 0 12px; color: #444; }
label { display: block; font-weight: 600; margin: 10px 0 6px; }
input { width: 100%; box-sizing: border-box; font-size: 20px; padding: 8px; }
#message { min-height: 1.4em; color: #a00; }
.actions { display: flex; justify-content: flex-end; gap: 8px; }
button { font-size: 16px; padding: 8px 16px; }
`

const MAX_BODY_BYTES = 1024

export interface StaffPinPromptOptions {
  /**
   * Checks an administrator's name and PIN or password (the services' verifyAdmin): resolves when
   * they may leave kiosk mode, throws a KioskError whose message the prompt shows otherwise.
   */
  verify: (name: string, secret: string) => Promise<void>
  /** Called once an administrator signed in (after the reply is built). */
  onUnlock: () => void
  /** Called when the person cancels the prompt. */
  onCancel: () => void
}

export interface StaffPinPrompt {
  /** Starts a prompt session and returns the URL its window must load. */
  begin(): string
  /** Ends the current session (the window closed): its token stops working. */
  end(): void
  /** Whether a prompt session is open. */
  readonly active: boolean
  /** Answers a request for app://staff-pin/…. */
  handle(request: Request): Promise<Response>
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...securityHeaders(PIN_PAGE_CSP), 'Content-Type': 'application/json; charset=utf-8' } })
}

function text(status: number, body: string, contentType: string): Response {
  return new Response(body, { status, headers: { ...securityHeaders(PIN_PAGE_CSP), 'Content-Type': contentType } })
}

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

async function readSmallJson(request: Request): Promise<Record<string, unknown> | null> {
  if (!(request.headers.get('content-type') ?? '').startsWith('application/json')) return null
  const body = await request.text()
  if (Buffer.byteLength(body) > MAX_BODY_BYTES) return null
  try {
    const value: unknown = JSON.parse(body)
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

export function createStaffPinPrompt(options: StaffPinPromptOptions): StaffPinPrompt {
  let session: string | null = null
  // One check at a time: each costs a scrypt (32 MB), and the page only ever sends one.
  let checking = false

  return {
    begin() {
      session = randomBytes(32).toString('base64url')
      return `${PIN_ORIGIN}/?s=${session}`
    },
    end() {
      session = null
    },
    get active() {
      return session !== null
    },
    async handle(request) {
      let url: URL
      try {
        url = new URL(request.url)
      } catch {
        return text(400, 'Bad request', 'text/plain; charset=utf-8')
      }
      if (url.protocol !== `${APP_SCHEME}:` || url.hostname.toLowerCase() !== PIN_HOST || session === null) return text(404, 'Not found', 'text/plain; charset=utf-8')
      if (request.method === 'GET') {
        if (url.pathname === '/' || url.pathname === '/index.html') return text(200, PAGE, 'text/html; charset=utf-8')
        if (url.pathname === '/pin.js') return text(200, SCRIPT, 'text/javascript; charset=utf-8')
        if (url.pathname === '/pin.css') return text(200, STYLE, 'text/css; charset=utf-8')
        return text(404, 'Not found', 'text/plain; charset=utf-8')
      }
      if (request.method !== 'POST' || (url.pathname !== '/unlock' && url.pathname !== '/cancel')) return text(405, 'Method not allowed', 'text/plain; charset=utf-8')
      // Chromium sets Origin on a page's POST and the page cannot forge it: another origin is refused.
      // (The one-time session token below is what really ties a request to the prompt's own window.)
      const origin = request.headers.get('origin')
      if (origin !== null && origin !== PIN_ORIGIN) return json(403, { ok: false, message: 'Not allowed.' })
      const body = await readSmallJson(request)
      const current = session
      if (!body || typeof body.session !== 'string' || current === null || !sameToken(body.session, current)) {
        return json(403, { ok: false, message: 'This prompt has expired. Press Ctrl+Shift+Q again.' })
      }
      if (url.pathname === '/cancel') {
        session = null
        options.onCancel()
        return json(200, { ok: true })
      }
      const input = signInInput.safeParse({ name: body.name, secret: body.secret })
      if (!input.success) return json(200, { ok: false, message: "Enter an administrator's name and PIN or password." })
      if (checking) return json(429, { ok: false, message: 'Still checking the previous attempt.' })
      checking = true
      try {
        await options.verify(input.data.name, input.data.secret)
      } catch (error) {
        // The services' message says which: no match, or too many attempts and how long to wait.
        return json(200, { ok: false, message: error instanceof KioskError ? error.message : 'The sign-in could not be checked. Try again.' })
      } finally {
        checking = false
      }
      // The prompt may have closed (or been reopened) while the sign-in was being checked.
      if (session !== current) return json(403, { ok: false, message: 'This prompt has expired. Press Ctrl+Shift+Q again.' })
      session = null
      queueMicrotask(options.onUnlock)
      return json(200, { ok: true })
    },
  }
}
