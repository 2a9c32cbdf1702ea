import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { startUntil, tsxArgs, type Started } from './process'

/** The administrator every test host gets (unless started with firstRun): sign in with these. */
export const TEST_ADMIN = Object.freeze({ name: 'Test Admin', secret: 'test-admin-secret-1' })

export interface TestWebHost {
  launchUrl: string
  /** The host's data folder (--data): removed when it stops. */
  dataDir: string
  origin: string
  token: string
  /**
   * A bridge call as the page makes it (launch token and a tab session), signed in as TEST_ADMIN;
   * throws on an error envelope. On a host started with firstRun the session is a visitor's until
   * someone creates the first administrator and this helper can sign in as TEST_ADMIN.
   */
  bridge<T = any>(method: string, input?: unknown): Promise<T>
  stop(): Promise<number | null>
  process: Started
}

interface Envelope {
  ok: boolean
  value?: unknown
  error?: { code: string; message: string }
}

export class BridgeError extends Error {
  constructor(
    readonly method: string,
    readonly code: string,
    message: string,
  ) {
    super(`${method}: ${code} ${message}`)
  }
}

/** The kiosk as `npm run start:web` runs it (the real host CLI, which starts the embedded engine), on its own data folder. */
export async function startWebHost(options: { firstRun?: boolean } = {}): Promise<TestWebHost> {
  const data = mkdtempSync(join(tmpdir(), 'kiosk-e2e-'))
  const [command, args] = tsxArgs('electron/host/cli.ts', ['--port', '0', '--data', data])
  const host = await startUntil(command, args, /^kiosk (http:\/\/127\.0\.0\.1:\d+\/#token=(\S+))$/)
  const launchUrl = host.match[1]!
  const origin = new URL(launchUrl).origin
  const token = host.match[2]!

  const newSession = async (): Promise<string> => {
    const reply = await fetch(`${origin}/bridge/session`, { method: 'POST', headers: { 'x-kiosk-token': token } })
    if (!reply.ok) throw new Error(`bridge session: the host answered ${reply.status}`)
    return ((await reply.json()) as { session: string }).session
  }
  let session = await newSession()
  const call = async (method: string, input: unknown): Promise<Envelope> => {
    const post = () => fetch(`${origin}/bridge/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-kiosk-token': token, 'x-kiosk-session': session }, body: JSON.stringify(input) })
    let reply = await post()
    if (reply.status === 409) {
      // The host no longer knows this session (it restarted): a new one, as the page would.
      session = await newSession()
      reply = await post()
    }
    return (await reply.json()) as Envelope
  }
  const unwrap = (method: string, envelope: Envelope) => {
    if (!envelope.ok) throw new BridgeError(method, envelope.error?.code ?? 'INTERNAL', envelope.error?.message ?? '')
    return envelope.value
  }
  if (!options.firstRun) unwrap('createFirstAdmin', await call('createFirstAdmin', TEST_ADMIN))
  /** Whether this helper's session has been an administrator's: then an idle expiry is repaired, never a first sign-in tried. */
  let wasAdmin = !options.firstRun
  const signIn = async () => {
    const signedIn = await call('signIn', TEST_ADMIN)
    if (signedIn.ok) wasAdmin = true
    return signedIn.ok
  }

  return {
    launchUrl,
    dataDir: data,
    origin,
    token,
    process: host,
    async stop() {
      const code = await host.stop()
      rmSync(data, { recursive: true, force: true })
      return code
    },
    async bridge(method, input = {}) {
      // A long step on a slow machine outlasts the idle timeout: a visitor's answer to a method
      // visitors may call (getEngineStatus without its pid) would be wrong, not refused, so the
      // session is checked first, and signed in again when it has lapsed.
      if (wasAdmin) {
        const kept = await call('keepSession', {})
        if (kept.ok && (kept.value as { role: string }).role === 'visitor') await signIn()
      }
      let envelope = await call(method, input)
      if (!envelope.ok && envelope.error?.code === 'FORBIDDEN') {
        // This host started without an administrator, and one exists now: sign in, once.
        if (await signIn()) envelope = await call(method, input)
      }
      return unwrap(method, envelope) as any
    },
  }
}

/**
 * Signs staff in through the UI from Home ("Staff sign-in", name, PIN or password) and waits until
 * the page says who is signed in. A reload ends a tab's session: sign in again after one.
 */
export async function signInAs(page: Page, name: string = TEST_ADMIN.name, secret: string = TEST_ADMIN.secret): Promise<void> {
  await page.getByRole('button', { name: 'Staff sign-in' }).click()
  const form = page.getByRole('region', { name: 'Staff sign-in' })
  await form.getByLabel('Name', { exact: true }).fill(name)
  await form.getByLabel('PIN or password', { exact: true }).fill(secret)
  await form.getByRole('button', { name: 'Sign in' }).click()
  await page.getByTestId('signed-in-as').filter({ hasText: `Signed in as ${name} ` }).waitFor({ timeout: 0 })
}
