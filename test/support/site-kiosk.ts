import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { launchEngineFromSource } from '../../electron/services/engine-launch'
import { createKioskServices, type KioskServices } from '../../electron/services/kiosk-services'
import { createKeychain } from '../../electron/services/secrets/keychain'
import type { KioskEvent } from '../../electron/shared/events'
import { projectRoot } from './process'

/**
 * A kiosk's services as installed: its own data folder and keychain scope, no settings,
 * no accounts, its own engine started from source; every call from a window key. It joins a site
 * by pairing code (joinSite) or stays on its own. Used by the site's front-desk tests and the
 * frontdesk benchmark.
 */
export interface FreshKiosk {
  keychainService: string
  /** Its data folder (removed by close). */
  dataDir: string
  services: KioskServices
  /** Log lines: the event stream says when it listens. */
  lines: string[]
  /** Events pushed to each window key that listens. */
  events: Map<string, KioskEvent[]>
  call(method: string, input?: unknown, key?: string): Promise<any>
  failure(method: string, input?: unknown, key?: string): Promise<{ code: string; message: string }>
  listen(key: string): KioskEvent[]
  /** Stops the services (and the kiosk's own engine, if it runs) and removes the data folder. */
  close(): Promise<void>
}

/** A fresh kiosk as installed: no settings, no accounts, every call from a window key (default `tab:staff`). */
export async function freshKiosk(): Promise<FreshKiosk> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-site-join-'))
  const keychainService = `identity-kiosk-site-join-${randomBytes(4).toString('hex')}`
  const lines: string[] = []
  const services = createKioskServices({
    shell: 'web',
    version: '0.0.0-test',
    dataDir,
    // Installed, a kiosk starts on its own engine; joining a site stops it.
    launchEngine: launchEngineFromSource(projectRoot),
    keychain: createKeychain(keychainService),
    log: (line) => lines.push(line),
  })
  try {
    await services.start()
  } catch (error) {
    await services.stop().catch(() => undefined)
    rmSync(dataDir, { recursive: true, force: true })
    throw error
  }
  const events = new Map<string, KioskEvent[]>()
  const stops: Array<() => void> = []
  return {
    keychainService,
    dataDir,
    services,
    lines,
    events,
    async call(method, input = {}, key = 'tab:staff') {
      const reply = await services.dispatch(method, input, key)
      if (!reply.ok) throw Object.assign(new Error(`${method}: ${reply.error.code} ${reply.error.message}`), { code: reply.error.code })
      return reply.value as any
    },
    async failure(method, input = {}, key = 'tab:staff') {
      const reply = await services.dispatch(method, input, key)
      if (reply.ok) throw new Error(`${method} unexpectedly succeeded`)
      return reply.error
    },
    listen(key) {
      const seen: KioskEvent[] = []
      events.set(key, seen)
      stops.push(services.onEvent(key, (event) => seen.push(event)))
      return seen
    },
    async close() {
      for (const stop of stops) stop()
      try {
        await services.stop()
      } finally {
        rmSync(dataDir, { recursive: true, force: true })
      }
    },
  }
}
