import { spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, describe, expect, it } from 'vitest'
import { browserOpener, openInBrowser } from '../../electron/host/open-browser'
import { projectRoot } from '../support/process'

// `npm start` as a newcomer runs it on this machine: no Electron binary, so the web host, with the
// kiosk's private keyring. A fake `xdg-open` first on PATH (a real process that records its
// argument) stands in for the desktop's browser.
const scratch = mkdtempSync(join(tmpdir(), 'kiosk-npm-start-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** A directory holding an `xdg-open` that writes its arguments to `record`. */
function fakeOpener(name: string): { bin: string; record: string } {
  const bin = join(scratch, name)
  const record = join(scratch, `${name}.opened`)
  rmSync(bin, { recursive: true, force: true })
  const script = join(bin, 'xdg-open')
  mkdirSync(bin, { recursive: true })
  writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "$@" > '${record}'\n`)
  chmodSync(script, 0o755)
  return { bin, record }
}

const until = async (test: () => boolean, what: string, timeoutMs: number) => {
  for (const deadline = Date.now() + timeoutMs; !test(); await new Promise((r) => setTimeout(r, 100))) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`)
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
    return true
  } catch {
    return false
  }
}

describe('the browser opener', () => {
  it('opens the URL with xdg-open in a graphical session, and is not tried when asked not to or without a display', async () => {
    const { bin, record } = fakeOpener('unit')
    const env = { PATH: `${bin}:${process.env.PATH}`, DISPLAY: ':0' }
    expect(openInBrowser('http://127.0.0.1:1/#token=t', () => {}, env, 'linux')).toMatchObject({ command: 'xdg-open' })
    await until(() => existsSync(record), 'the opener', 10_000)
    expect(readFileSync(record, 'utf8').trim()).toBe('http://127.0.0.1:1/#token=t')

    expect(browserOpener({ ...env, KIOSK_NO_BROWSER: '1' }, 'linux')).toEqual({ command: null, reason: 'KIOSK_NO_BROWSER is set' })
    expect(browserOpener({ ...env, CI: 'true' }, 'linux')).toEqual({ command: null, reason: 'running in CI' })
    expect(browserOpener({ PATH: env.PATH }, 'linux')).toEqual({ command: null, reason: 'no graphical session' })
    expect(browserOpener({ PATH: '/nonexistent', DISPLAY: ':0' }, 'linux')).toEqual({ command: null, reason: 'no xdg-open' })
  })
})

describe('npm start without Electron', () => {
  it('opens the kiosk in the browser, prints its URL on one line, and prints none of the known noise', async () => {
    const { bin, record } = fakeOpener('start')
    const dataDir = join(scratch, 'data')
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH}`, DISPLAY: ':0', KIOSK_DATA_DIR: dataDir }
    // A normal start: not in CI, and the kiosk's own private keyring rather than any session bus the test runs in.
    for (const name of ['CI', 'KIOSK_NO_BROWSER', 'DBUS_SESSION_BUS_ADDRESS', 'WAYLAND_DISPLAY']) delete env[name]
    const child = spawn(process.execPath, [join(projectRoot, 'scripts/start.mjs')], { cwd: projectRoot, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    const output: string[] = []
    for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (line) => output.push(line))
    const exited = new Promise((resolve) => child.once('exit', resolve))
    try {
      // Started: the URL printed, the browser asked to open it, and the engine's first outcome (the outbox's cue) past.
      await until(() => output.some((line) => /engine ready/.test(line)) && existsSync(record), `a started kiosk (output so far:\n${output.join('\n')})`, 240_000)
    } finally {
      process.kill(-child.pid!, 'SIGTERM')
      await exited
      // The web host and its engine stop gracefully, after the outer script: wait for the whole group.
      await until(() => !groupAlive(child.pid!), 'the kiosk stopping', 60_000)
    }
    const text = output.join('\n')
    const url = /^kiosk (http:\/\/127\.0\.0\.1:\d+\/#token=\S+)$/m.exec(text)?.[1]
    expect(url, text).toBeDefined()
    expect(readFileSync(record, 'utf8').trim()).toBe(url)
    expect(text).toContain('Opening the kiosk in the default browser (xdg-open).')
    expect(text).not.toMatch(/Failed to set fd limit/)
    expect(text).not.toMatch(/chunks are larger than/)
    expect(text).not.toMatch(/outbox: offline/)

    // The chunk-size limit was raised for the face detector's one prebuilt module only: every other chunk stays under Vite's 500 kB.
    const assets = join(projectRoot, 'out/renderer/assets')
    const large = readdirSync(assets).filter((name) => name.endsWith('.js') && statSync(join(assets, name)).size > 500_000)
    expect(large.map((name) => name.replace(/-[\w-]{8}\.js$/, ''))).toEqual(['human.esm'])
  }, 300_000)
})
