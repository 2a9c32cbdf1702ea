import type { Look } from '../../shared/frontdesk-api'
import { lookSettingKeys, type KioskSettings, type SettingsPatch } from '../../shared/settings'
import type { KioskDesk } from '../front-desk/desk'

export interface SiteLook {
  /** The site's look while the kiosk is on a site, null on its own; throws when the site cannot be reached. */
  current(): Promise<Look | null>
  /** The last look the site gave (null: none yet, or the kiosk is on its own). */
  known(): Look | null
  /**
   * The settings with the site's look in place of the kiosk's own (the kiosk's own, on its own).
   * `strict`: throws when the site cannot be reached (the retention must apply the site's days or
   * none); otherwise the last look the site gave, else the kiosk's own values, logged.
   */
  settings(options?: { strict?: boolean }): Promise<KioskSettings>
  /** The site's look changed (its event, a reconnection, this kiosk's own change): the next read asks the site. */
  changed(): void
}

/** The look read from the site is kept this long at most, even without word of a change (a safety net: the site's event says when). */
export const LOOK_KEPT_MS = 60_000

/** The look's settings from a look. */
export const lookSettingsOf = (look: Look): Pick<KioskSettings, (typeof lookSettingKeys)[number]> => ({
  organisationName: look.organisationName,
  welcomeLine: look.welcomeLine,
  accentColour: look.accentColour,
  visitorRetentionDays: look.visitorRetentionDays,
})

/** A settings patch split: the site's look fields, and what stays the kiosk's own. */
export function splitLookPatch(patch: SettingsPatch): { look: SettingsPatch; own: SettingsPatch } {
  const look: Record<string, unknown> = {}
  const own: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(patch)) ((lookSettingKeys as readonly string[]).includes(key) ? look : own)[key] = value
  return { look: look as SettingsPatch, own: own as SettingsPatch }
}

/**
 * The organisation's look on a site is the site's front-desk record, never copied
 * into the kiosk's settings. It is read from the site once and kept until the site says it changed
 * (every screen polls the branding, and the logo is up to half a megabyte). A kiosk on its own keeps
 * its look in its settings and logo file, as always.
 */
export function siteLook(deps: { settings: () => Promise<KioskSettings>; desk: () => Promise<KioskDesk>; log: (line: string) => void; now?: () => number }): SiteLook {
  const now = deps.now ?? Date.now
  let last: Look | null = null
  let kept: { desk: string; until: number } | null = null
  let changes = 0
  async function current(): Promise<Look | null> {
    const settings = await deps.settings()
    if (settings.mode !== 'site') return null
    const desk = await deps.desk()
    if (!desk.onSite) return null
    if (last && kept && kept.desk === desk.id && kept.until > now()) return last
    const heard = changes
    const asked = now()
    last = await desk.look()
    // A change heard while the site was being asked: this answer may predate it, so it is not kept.
    kept = heard === changes ? { desk: desk.id, until: asked + LOOK_KEPT_MS } : null
    return last
  }
  return {
    current,
    known: () => last,
    changed() {
      changes++
      kept = null
    },
    async settings(options = {}) {
      const settings = await deps.settings()
      if (settings.mode !== 'site') return settings
      let look: Look | null
      try {
        look = await current()
      } catch (error) {
        if (options.strict) throw error
        deps.log(`site: cannot read the site’s look (${error instanceof Error ? error.message : 'unknown error'}); showing ${last ? 'the last one it gave' : 'this kiosk’s own'}`)
        look = last
      }
      return look ? { ...settings, ...lookSettingsOf(look) } : settings
    },
  }
}
