import type { Branding } from '../../shared/branding'
import type { Look, LookPatch } from '../../shared/frontdesk-api'
import type { KioskSettings } from '../../shared/settings'
import { KioskError } from '../../shared/errors'
import { readImageSize } from '../../shared/image-limits'
import { sanitiseLogo } from './logo-image'
import type { LogoStore } from './logo-store'
import type { SiteLook } from './site-look'

const PNG_DATA_URL = 'data:image/png;base64,'

export interface BrandingService {
  get(): Promise<Branding>
  /**
   * Sanitises and stores a logo (base64 of the file), or removes it (null); tells every screen.
   * On a site `site` stores it there (an administrator's call): the site then tells every kiosk.
   */
  setLogo(image: string | null, site?: (patch: LookPatch) => Promise<Look>): Promise<Branding>
  /** After settings were saved: tells every screen when the name, welcome line or accent changed, or where the look comes from (joining or leaving a site). */
  settingsSaved(previous: KioskSettings | null, next: KioskSettings): Promise<void>
  /** The site said its look changed: every screen is told the new one. */
  siteLookChanged(): Promise<void>
}

/**
 * The organisation's look for the screens: on its own, name, welcome line and accent from the
 * settings and the logo from its own file (read each time: the desktop app and the web host share
 * the data folder); on a site, the site's look, or, while the site cannot be
 * reached, the last one it gave.
 */
export function brandingService(options: { settings: () => Promise<KioskSettings>; site: SiteLook; logo: LogoStore; emit: (branding: Branding) => void; log: (line: string) => void }): BrandingService {
  const { settings, logo, emit, log } = options
  const ofLook = (look: Look): Branding => ({
    organisationName: look.organisationName,
    welcomeLine: look.welcomeLine,
    accentColour: look.accentColour,
    logo: look.logo === null ? null : `${PNG_DATA_URL}${look.logo}`,
  })
  async function siteLook(): Promise<Look | null> {
    try {
      return await options.site.current()
    } catch (error) {
      log(`kiosk: branding: cannot read the site’s look (${error instanceof Error ? error.message : 'unknown error'}); showing ${options.site.known() ? 'the last one it gave' : 'this kiosk’s own'}`)
      return options.site.known()
    }
  }
  async function get(): Promise<Branding> {
    const look = await siteLook()
    if (look) return ofLook(look)
    const { organisationName, welcomeLine, accentColour } = await settings()
    const png = await logo.read()
    return { organisationName, welcomeLine, accentColour, logo: png ? `${PNG_DATA_URL}${png.toString('base64')}` : null }
  }
  const announce = async () => {
    const branding = await get()
    emit(branding)
    return branding
  }
  return {
    get,
    async setLogo(image, site) {
      if (site) {
        // Sanitised here as on a kiosk of its own: the site keeps only the re-encoded PNG.
        const png = image === null ? null : (await sanitiseLogo(Buffer.from(image, 'base64'))).png.toString('base64')
        return ofLook(await site({ logo: png }))
      }
      try {
        if (image === null) await logo.clear()
        else await logo.write((await sanitiseLogo(Buffer.from(image, 'base64'))).png)
      } catch (error) {
        if (error instanceof KioskError) throw error
        log(`kiosk: branding: cannot store the logo (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`)
        throw new KioskError('INTERNAL', 'The kiosk could not store the logo.')
      }
      return announce()
    },
    async settingsSaved(previous, next) {
      const changed =
        !previous ||
        previous.mode !== next.mode ||
        previous.personServerUrl !== next.personServerUrl ||
        previous.organisationName !== next.organisationName ||
        previous.welcomeLine !== next.welcomeLine ||
        previous.accentColour !== next.accentColour
      if (changed) await announce()
    },
    async siteLookChanged() {
      await announce()
    },
  }
}

/** A stored logo in an audit entry: its format and size, never its bytes. */
export function describeLogo(dataUrl: string): string {
  const bytes = Buffer.from(dataUrl.slice(PNG_DATA_URL.length), 'base64')
  const size = readImageSize(bytes, 'png')
  return size ? `PNG, ${size.width}×${size.height} px` : 'PNG'
}
