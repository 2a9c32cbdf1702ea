import { hostname } from 'node:os'
import { KioskError } from '../../shared/errors'
import { kioskName } from '../../shared/frontdesk-api'
import { settingsPatchSchema, type KioskSettings, type SettingsPatch } from '../../shared/settings'
import type { Call } from '../dispatch'
import type { KioskDesk, StaffDesk } from '../front-desk/desk'
import type { CredentialStore } from '../secrets/credentials'
import { pairWithSite } from '../site/pairing'
import type { SiteEvents } from '../site/site-events'
import type { Feature } from './feature'

export interface SiteDeps {
  settings: () => Promise<KioskSettings>
  /** The front desk in use now, and as the caller's staff session. */
  desk: () => Promise<KioskDesk>
  staffDesk: (call: Call) => Promise<StaffDesk>
  credentials: Pick<CredentialStore, 'setServerCredentials'>
  /** Saves settings as an administrator's saveSettings does (servers reset, engine and outbox follow the mode). */
  saveSettings: (patch: SettingsPatch) => Promise<KioskSettings>
  /** The site's event stream (null where nothing listens, as in tests without servers). */
  events: SiteEvents | null
}

/** The site answers this kiosk's credential with 401: it was removed (an unreachable site is not that). */
async function removedFromSite(desk: KioskDesk): Promise<boolean> {
  try {
    await desk.accountCount()
    return false
  } catch (error) {
    return error instanceof KioskError && error.code === 'UNAUTHORIZED'
  }
}

/** This computer's name when the kiosk has none yet and the join screen gave none. */
function defaultName(): string {
  const parsed = kioskName.safeParse(hostname())
  return parsed.success ? parsed.data : 'Kiosk'
}

/**
 * A kiosk on a site: joining one with a pairing code (the kiosk becomes the site's OAuth
 * client, its settings say mode 'site'), and an administrator's pairing codes and list of the
 * site's kiosks. The site's events are followed from start to stop while the kiosk is on a site.
 */
export function siteFeature(deps: SiteDeps): Feature {
  /**
   * Who may join: the first-run screen of a kiosk nobody set up yet, or of one its site removed
   * (the site refuses its credential: it is on no site), else an administrator.
   */
  async function mayJoin(call: Call): Promise<void> {
    if (call.actor.role === 'admin') return
    const settings = await deps.settings()
    const desk = await deps.desk()
    if (settings.mode !== 'site' && (await desk.accountCount()) === 0) return
    if (settings.mode === 'site' && (await removedFromSite(desk))) return
    throw new KioskError('FORBIDDEN', 'Only an administrator may join this kiosk to a site.')
  }

  return {
    handlers: {
      async joinSite(input, call) {
        await mayJoin(call)
        const settings = await deps.settings()
        const paired = await pairWithSite({
          url: input.url,
          code: input.code,
          name: input.name ?? (settings.kioskName || defaultName()),
          connectTimeoutMs: settings.connectTimeoutSeconds * 1000,
          requestTimeoutMs: settings.requestTimeoutSeconds * 1000,
        })
        // Checked before anything is stored: a site's answer the settings would refuse changes nothing here.
        const patch = settingsPatchSchema.safeParse({
          mode: 'site',
          personServerUrl: input.url,
          bioEngineUrl: `${input.url}/bioengine`,
          tenantCode: paired.tenantCode,
          kioskName: paired.name,
          bioEngineAuth: 'person-server-token',
        } satisfies SettingsPatch)
        if (!patch.success) throw new KioskError('BAD_REPLY', `The site's answer cannot be used as this kiosk's settings (${patch.error.issues[0]?.path.join('.') ?? 'settings'}); the kiosk was left as it was.`)
        // The site's credential replaces the server credentials: one token for its person server, BioEngine and front desk.
        await deps.credentials.setServerCredentials({ clientId: paired.clientId, clientSecret: paired.clientSecret })
        await deps.saveSettings(patch.data)
        return { kioskId: paired.kioskId, name: paired.name, url: input.url }
      },
      createPairingCode: async (_input, call) => (await deps.staffDesk(call)).createPairingCode(),
      listKiosks: async (_input, call) => (await deps.staffDesk(call)).listKiosks(),
      async removeKiosk(input, call) {
        if (!(await (await deps.staffDesk(call)).removeKiosk(input.id))) throw new KioskError('NOT_FOUND', 'The site has no such kiosk (someone may have just removed it).')
        return { ok: true }
      },
    },
    start: () => deps.events?.refresh(),
    stop: () => deps.events?.stop(),
  }
}
