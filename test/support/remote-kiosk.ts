import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { LaunchEngine } from '../../electron/services/engine-launch'
import { createKioskServices, type KioskServices, type KioskServicesOptions } from '../../electron/services/kiosk-services'
import { createKeychain } from '../../electron/services/secrets/keychain'
import type { SettingsPatch } from '../../electron/shared/settings'
import { adminDispatch } from './staff'
import { startStandin, TEMPLATE_TYPE, type Standin, type StandinOptions } from './vendor-standin'

const TENANT = 'KIOSK'

/** The settings that point the kiosk at a stand-in. */
export function remoteSettings(standin: Standin) {
  return { mode: 'remote', personServerUrl: standin.personServerUrl, bioEngineUrl: standin.bioEngineUrl, tenantCode: TENANT, appCode: 'KIOSK', templateType: TEMPLATE_TYPE } as const
}

/**
 * The kiosk services in remote mode, composed as the web host and Electron compose them (real
 * keychain under a throwaway service name, real clients, every call through dispatch), against a
 * fresh vendor stand-in with tenants KIOSK and OTHER.
 */
export interface RemoteKiosk {
  standin: Standin
  /** Contract methods called so far (successfully or not). */
  called: Set<string>
  services: KioskServices
  call(method: string, input?: unknown): Promise<any>
  failure(method: string, input?: unknown): Promise<{ code: string; message: string }>
  /** Polls the outbox until `done` holds for its state (the dispatcher works on its own timing). */
  outboxUntil(done: (state: any) => boolean, what: string): Promise<any>
  close(): Promise<void>
}

export async function remoteKiosk(
  standinOptions: Partial<StandinOptions> = {},
  settings: SettingsPatch = {},
  /** Runs on the fresh data folder before the services are built (to plant files). */
  prepare: (dataDir: string, standin: Standin) => void = () => {},
  /**
   * False: nobody signs in and nothing is configured; every call is a visitor's at the screen
   * (the test does what staff would do itself).
   */
  configure = true,
  /** Remote mode starts the embedded engine only to judge liveness; tests of that pass a real launcher. */
  launchEngine: LaunchEngine = () => {
    throw new Error('remote mode must not start the embedded engine')
  },
  /** The clock the retentions go by (tests move it forward). */
  now?: KioskServicesOptions['now'],
): Promise<RemoteKiosk> {
  const credentials = { clientId: 'kiosk-remote', clientSecret: 'vendor-secret-0123' }
  const standin = await startStandin({ ...credentials, tenants: [TENANT, 'OTHER'], ...standinOptions })
  const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-remote-'))
  prepare(dataDir, standin)
  const services = createKioskServices({
    shell: 'web',
    version: '0.0.0-test',
    dataDir,
    launchEngine,
    keychain: createKeychain(`identity-kiosk-remote-${randomBytes(4).toString('hex')}`),
    ...(now && { now }),
    log: () => {},
  })
  const called = new Set<string>()
  // Staff configure and run the kiosk here: an administrator's session (a visitor's without configure).
  const dispatch = configure ? await adminDispatch(services.dispatch) : (method: string, input: unknown) => services.dispatch(method, input, 'test:visitor')
  const call = async (method: string, input: unknown = {}) => {
    called.add(method)
    const reply = await dispatch(method, input)
    if (!reply.ok) throw Object.assign(new Error(`${method}: ${reply.error.message}`), { code: reply.error.code })
    return reply.value as any
  }
  const failure = async (method: string, input: unknown = {}) => {
    called.add(method)
    const reply = await dispatch(method, input)
    if (reply.ok) throw new Error(`${method} unexpectedly succeeded`)
    return reply.error
  }
  if (configure) {
    await call('saveSettings', { ...remoteSettings(standin), basicAuthEncoding: standinOptions.basicEncoding ?? 'form-urlencoded', ...settings })
    await call('setCredentials', { clientId: standinOptions.clientId ?? credentials.clientId, clientSecret: standinOptions.clientSecret ?? credentials.clientSecret })
  }
  await services.start()
  const outboxUntil = async (done: (state: any) => boolean, what: string) => {
    for (let polls = 0; polls < 600; polls++) {
      const state = await call('getOutbox')
      if (done(state)) return state
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(`the outbox never reached: ${what}`)
  }
  return {
    standin,
    called,
    services,
    call,
    failure,
    outboxUntil,
    async close() {
      await services.stop()
      await standin.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

