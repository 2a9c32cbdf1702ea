import { hostname } from 'node:os'
import { broughtCounts, type BroughtCounts } from '../../records/frontdesk/merge-export'
import { KioskError } from '../../shared/errors'
import { kioskName, type KioskRecords } from '../../shared/frontdesk-api'
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
  /** The kiosk's own front desk records, which an administrator may bring to the site (absent: it has none to bring). */
  ownRecords?: OwnRecordsToBring
  log?: (line: string) => void
}

/** A kiosk on its own's records, read to be brought to a site and removed once the site has them. */
export interface OwnRecordsToBring {
  read(): Promise<KioskRecords>
  /** Removes exactly what was read and brought; returns how many of each. */
  remove(records: KioskRecords): Promise<BroughtCounts>
}

/** The kinds of record a kiosk brings, as its log names them. */
const broughtKinds: Record<keyof BroughtCounts, string> = { accounts: 'staff accounts', watchlist: 'watchlist entries', alerts: 'alerts', hosts: 'hosts', visits: 'visits', invites: 'invites' }

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

  /**
   * What the kiosk brings when its administrator chose to: only an administrator's choice (a kiosk
   * at its first run has nothing to bring), and only from a kiosk on its own (on a site its records
   * are the site's). Read before the code is used: a failed read changes nothing anywhere.
   */
  async function recordsToBring(input: { bringRecords?: boolean | undefined }, call: Call, settings: KioskSettings): Promise<KioskRecords | undefined> {
    if (!input.bringRecords) return undefined
    if (call.actor.role !== 'admin') throw new KioskError('FORBIDDEN', 'Only an administrator signed in at this kiosk may bring its records to a site.')
    if (settings.mode === 'site') throw new KioskError('INVALID_INPUT', "This kiosk is on a site: its records are the site's, and it has none of its own to bring.")
    if (!deps.ownRecords) throw new KioskError('NOT_CONFIGURED', 'This kiosk keeps no records of its own to bring.')
    return deps.ownRecords.read()
  }

  /**
   * After the site took the records: the kiosk keeps no second copy. A removal that fails leaves
   * a copy here (the site has them all the same): logged, never the join's failure.
   */
  async function removeBrought(records: KioskRecords): Promise<BroughtCounts> {
    try {
      const removed = await deps.ownRecords!.remove(records)
      deps.log?.(`site: brought to the site and removed here: ${Object.entries(broughtKinds).map(([kind, words]) => `${removed[kind as keyof BroughtCounts]} ${words}`).join(', ')}`)
      return removed
    } catch (error) {
      deps.log?.(`site: the records brought to the site could not be removed here: ${error instanceof Error ? error.message : 'unknown error'}`)
      return broughtCounts(records)
    }
  }

  return {
    handlers: {
      async joinSite(input, call) {
        await mayJoin(call)
        const settings = await deps.settings()
        const records = await recordsToBring(input, call, settings)
        const paired = await pairWithSite({
          url: input.url,
          code: input.code,
          name: input.name ?? (settings.kioskName || defaultName()),
          connectTimeoutMs: settings.connectTimeoutSeconds * 1000,
          requestTimeoutMs: settings.requestTimeoutSeconds * 1000,
          ...(records ? { records } : {}),
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
        if (!records) return { kioskId: paired.kioskId, name: paired.name, url: input.url }
        // Removed only now: had pairing failed (or the settings been refused), the kiosk would have stayed on its own with all it had.
        const brought = await removeBrought(records)
        return { kioskId: paired.kioskId, name: paired.name, url: input.url, brought, keptApart: paired.keptApart ?? [] }
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
