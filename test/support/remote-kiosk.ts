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

/** The settings that point the kiosk at servers: a stand-in (tenant KIOSK, its template type) unless they say otherwise. */
export function remoteSettings(servers: { personServerUrl: string; bioEngineUrl: string; tenantCode?: string; templateType?: string }) {
  const { personServerUrl, bioEngineUrl, tenantCode = TENANT, templateType = TEMPLATE_TYPE } = servers
  return { mode: 'remote', personServerUrl, bioEngineUrl, tenantCode, appCode: 'KIOSK', templateType } as const
}

/** Where a kiosk in remote mode points (any person server and BioEngine), and the client it signs in as. */
export interface RemoteServers {
  personServerUrl: string
  bioEngineUrl: string
  tenantCode?: string
  templateType?: string
  clientId: string
  clientSecret: string
}

/**
 * The kiosk services in remote mode, composed as the web host and Electron compose them (real
 * keychain under a throwaway service name, real clients, every call through dispatch), each with
 * its own data folder and keychain scope.
 */
export interface KioskAt {
  dataDir: string
  /** Contract methods called so far (successfully or not). */
  called: Set<string>
  services: KioskServices
  call(method: string, input?: unknown): Promise<any>
  failure(method: string, input?: unknown): Promise<{ code: string; message: string }>
  /** Polls the outbox until `done` holds for its state (the dispatcher works on its own timing). */
  outboxUntil(done: (state: any) => boolean, what: string): Promise<any>
  close(): Promise<void>
}

/** A kiosk against a fresh vendor stand-in with tenants KIOSK and OTHER. */
export interface RemoteKiosk extends KioskAt {
  standin: Standin
}

export interface KioskAtOptions {
  /** Saved after the servers' settings (configure only). */
  settings?: SettingsPatch
  /** Runs on the fresh data folder before the services are built (to plant files). */
  prepare?: (dataDir: string) => void
  /**
   * False: nobody signs in and nothing is configured; every call is a visitor's at the screen
   * (the test does what staff would do itself).
   */
  configure?: boolean
  /** Remote mode starts the embedded engine only for liveness and the offline replica; tests of those pass a real launcher. */
  launchEngine?: LaunchEngine
  /** The clock the retentions go by (tests move it forward). */
  now?: KioskServicesOptions['now']
}

/** A kiosk in remote mode against `servers`, whatever they are (a stand-in, a site's front, a proxy before it). */
export async function kioskAt(servers: RemoteServers, options: KioskAtOptions = {}): Promise<KioskAt> {
  const { settings = {}, prepare = () => {}, configure = true, now } = options
  const launchEngine: LaunchEngine =
    options.launchEngine ??
    (() => {
      throw new Error('remote mode must not start the embedded engine')
    })
  const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-remote-'))
  prepare(dataDir)
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
    await call('saveSettings', { ...remoteSettings(servers), ...settings })
    await call('setCredentials', { clientId: servers.clientId, clientSecret: servers.clientSecret })
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
    dataDir,
    called,
    services,
    call,
    failure,
    outboxUntil,
    async close() {
      await services.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** kioskAt a fresh vendor stand-in with tenants KIOSK and OTHER (closed with the kiosk). */
export async function remoteKiosk(
  standinOptions: Partial<StandinOptions> = {},
  settings: SettingsPatch = {},
  /** Runs on the fresh data folder before the services are built (to plant files). */
  prepare: (dataDir: string, standin: Standin) => void = () => {},
  configure = true,
  launchEngine?: LaunchEngine,
  now?: KioskServicesOptions['now'],
): Promise<RemoteKiosk> {
  const { clientId = 'kiosk-remote', clientSecret = 'vendor-secret-0123' } = standinOptions
  const standin = await startStandin({ clientId, clientSecret, tenants: [TENANT, 'OTHER'], ...standinOptions })
  try {
    const kiosk = await kioskAt(
      { personServerUrl: standin.personServerUrl, bioEngineUrl: standin.bioEngineUrl, clientId, clientSecret },
      {
        settings: { basicAuthEncoding: standinOptions.basicEncoding ?? 'form-urlencoded', ...settings },
        prepare: (dataDir) => prepare(dataDir, standin),
        configure,
        ...(launchEngine && { launchEngine }),
        ...(now && { now }),
      },
    )
    return {
      ...kiosk,
      standin,
      async close() {
        await kiosk.close()
        await standin.close()
      },
    }
  } catch (error) {
    await standin.close()
    throw error
  }
}
