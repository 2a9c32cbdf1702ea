import { ApiError } from '../clients/api-error'
import { usesRemoteServers, type KioskSettings, type SettingsPatch } from '../../shared/settings'
import type { Backend } from '../backend'
import type { BrandingService } from '../branding/branding'
import { splitLookPatch, type SiteLook } from '../branding/site-look'
import type { Call } from '../dispatch'
import type { StaffDesk } from '../front-desk/desk'
import type { EngineSupervisor } from '../engine-supervisor'
import type { Replica } from '../replica/replica'
import type { CredentialStore } from '../secrets/credentials'
import type { SettingsStore } from '../settings-store'
import { testConnection } from '../workflows/connection-test'
import type { Feature } from './feature'

/** The saved settings, read once and kept: every feature reads them here, only the settings feature changes them. */
export function savedSettings(store: SettingsStore) {
  let settings: KioskSettings | null = null
  return {
    current: async () => (settings ??= await store.load()),
    /** As last read, without reading: null before the first read. */
    known: () => settings,
    /** Keeps settings just saved; answers the ones they replace. */
    replace(next: KioskSettings): KioskSettings | null {
      const previous = settings
      settings = next
      return previous
    },
    store,
  }
}
export type SavedSettings = ReturnType<typeof savedSettings>

export interface SettingsDeps {
  saved: SavedSettings
  credentials: Pick<CredentialStore, 'credentialStatus' | 'setServerCredentials' | 'clearServerCredentials'>
  backend: () => Promise<Backend>
  /** Drops the servers' clients (and their tokens): the next call connects with what was saved. */
  resetServers: () => Promise<void>
  /** The kiosk's own engine: started on its mode's folder, stopped. */
  own: { start(settings: KioskSettings): Promise<unknown>; supervisor: Pick<EngineSupervisor, 'getStatus' | 'stop'> }
  replica: Pick<Replica, 'wipe' | 'dropIfOff'>
  /** Starts the outbox's sender (remote mode needs no engine of its own to send). */
  sendOutbox: () => void
  branding: BrandingService
  /** On a site, the organisation's look is the site's. */
  site: SiteLook
  /** The front desk as the caller's staff session (an administrator sets the site's look). */
  staffDesk: (call: Call) => Promise<StaffDesk>
  purgeExpired: () => Promise<void>
  log: (line: string) => void
}

/**
 * Settings, server credentials and the organisation's look, and what saving them changes: the
 * servers the kiosk talks to, its own engine running only in embedded mode, the replica kept only
 * for the servers it was made from.
 */
export function settingsFeature(deps: SettingsDeps): Feature & { save(patch: SettingsPatch): Promise<KioskSettings> } {
  const { saved, own, log } = deps
  const engine = own.supervisor
  const startEngine = (settings: KioskSettings) => own.start(settings).catch((error: Error) => log(`embedded engine failed to start: ${error.message}`))

  /** Applies saved settings: the right target, the embedded engine running only in embedded mode. */
  async function apply(next: KioskSettings): Promise<void> {
    const previous = saved.replace(next)
    // The replica holds one server's tenant: turned off, or pointed elsewhere, it goes.
    const kept = (s: KioskSettings | null) => s && usesRemoteServers(s.mode) && s.offlineReplica && `${s.personServerUrl}|${s.bioEngineUrl}|${s.tenantCode}`
    if (kept(previous) && kept(previous) !== kept(next)) await deps.replica.wipe()
    await deps.resetServers()
    if (usesRemoteServers(next.mode) && !(previous && usesRemoteServers(previous.mode))) {
      await engine.stop()
      deps.sendOutbox()
    }
    if (next.mode === 'embedded' && (previous?.mode !== 'embedded' || engine.getStatus().state === 'stopped')) {
      void startEngine(next)
    } else if (next.mode === 'embedded' && next.tenantCode !== previous?.tenantCode) {
      await ensureEmbeddedTenant(next.tenantCode)
    }
  }

  /** The embedded engine is the kiosk's own: a tenant code chosen in Settings is created there. */
  async function ensureEmbeddedTenant(tenantCode: string): Promise<void> {
    const { persons } = await deps.backend()
    const existing = await persons.getTenant(tenantCode).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return null
      throw error
    })
    if (!existing) await persons.updateTenant(tenantCode, { name: tenantCode, maxIdentities: 0, defaultPostBack: null })
  }

  /** Credentials changed: the servers' clients (and their tokens) go with the old ones. */
  const reconnecting = async <T>(change: Promise<T>): Promise<T> => {
    const status = await change
    await deps.resetServers()
    return status
  }

  /** Saves and applies settings (saveSettings, and joining a site). */
  async function save(patch: SettingsPatch): Promise<KioskSettings> {
    const previous = await saved.current()
    const next = await saved.store.update(patch)
    await apply(next)
    await deps.branding.settingsSaved(previous, next)
    void deps.purgeExpired()
    return next
  }

  /** On a site (and staying on it), the look's fields are the site's: only those that differ from its look go there, as the caller. */
  const onSite = async (patch: SettingsPatch) => (await saved.current()).mode === 'site' && (patch.mode ?? 'site') === 'site'
  async function saveSettings(patch: SettingsPatch, call: Call): Promise<KioskSettings> {
    if (!(await onSite(patch))) return save(patch)
    const { look, own: local } = splitLookPatch(patch)
    if (Object.keys(look).length > 0) {
      const current = await deps.site.current()
      const changed = Object.fromEntries(Object.entries(look).filter(([key, value]) => !current || current[key as keyof typeof current] !== value))
      // First the site's: when it refuses, nothing is saved here either.
      if (Object.keys(changed).length > 0) await (await deps.staffDesk(call)).setLook(changed).finally(() => deps.site.changed())
    }
    await save(local)
    return deps.site.settings()
  }

  return {
    save,
    handlers: {
      getSettings: () => deps.site.settings(),
      saveSettings,
      getCredentialStatus: () => deps.credentials.credentialStatus(),
      setCredentials: (input) => reconnecting(deps.credentials.setServerCredentials(input)),
      clearCredentials: (input) => reconnecting(deps.credentials.clearServerCredentials(input.names)),
      testConnection: async () => testConnection(await saved.current(), deps.backend),
      getBranding: () => deps.branding.get(),
      async setLogo(input, call) {
        if (!(await onSite({}))) return deps.branding.setLogo(input.image)
        const desk = await deps.staffDesk(call)
        return deps.branding.setLogo(input.image, (patch) => desk.setLook(patch).finally(() => deps.site.changed()))
      },
    },
    // The saved settings applied at start (read now: settings saved while the kiosk started decide).
    async start() {
      const latest = await saved.current()
      if (latest.mode === 'embedded') await startEngine(latest)
      // A replica left from remote mode with the replica on: if nothing may use or purge it now, it goes.
      await deps.replica.dropIfOff()
    },
  }
}
