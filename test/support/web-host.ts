import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startUntil, tsxArgs, type Started } from './process'

export interface TestWebHost {
  launchUrl: string
  origin: string
  token: string
  /** A bridge call as the page makes it (with the launch token); throws on an error envelope. */
  bridge<T = any>(method: string, input?: unknown): Promise<T>
  stop(): Promise<number | null>
  process: Started
}

/** The kiosk as `npm run start:web` runs it (the real host CLI, which starts the embedded engine), on its own data folder. */
export async function startWebHost(): Promise<TestWebHost> {
  const data = mkdtempSync(join(tmpdir(), 'kiosk-e2e-'))
  const [command, args] = tsxArgs('electron/host/cli.ts', ['--port', '0', '--data', data])
  const host = await startUntil(command, args, /^kiosk (http:\/\/127\.0\.0\.1:\d+\/#token=(\S+))$/)
  const launchUrl = host.match[1]!
  const origin = new URL(launchUrl).origin
  const token = host.match[2]!
  return {
    launchUrl,
    origin,
    token,
    process: host,
    async stop() {
      const code = await host.stop()
      rmSync(data, { recursive: true, force: true })
      return code
    },
    async bridge(method, input = {}) {
      const reply = await fetch(`${origin}/bridge/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-kiosk-token': token }, body: JSON.stringify(input) })
      const envelope = (await reply.json()) as { ok: boolean; value?: unknown; error?: { code: string; message: string } }
      if (!envelope.ok) throw new Error(`${method}: ${envelope.error?.code} ${envelope.error?.message}`)
      return envelope.value as any
    },
  }
}
