import type { Branding } from '../../shared/branding'
import type { KioskSettings } from '../../shared/settings'
import { KioskError } from '../../shared/errors'
import { readImageSize } from '../../shared/image-limits'
import { sanitiseLogo } from './logo-image'
import type { LogoStore } from './logo-store'

const PNG_DATA_URL = 'data:image/png;base64,'

export interface BrandingService {
  get(): Promise<Branding>
  /** Sanitises and stores a logo (base64 of the file), or removes it (null); tells every screen. */
  setLogo(image: string | null): Promise<Branding>
  /** After settings were saved: tells every screen when the name, welcome line or accent changed. */
  settingsSaved(previous: KioskSettings | null, next: KioskSettings): Promise<void>
}

/**
 * The organisation's look for the screens: name, welcome line and accent from the settings, the
 * logo from its own file (read each time: the desktop app and the web host share the data folder).
 */
export function brandingService(options: { settings: () => Promise<KioskSettings>; logo: LogoStore; emit: (branding: Branding) => void; log: (line: string) => void }): BrandingService {
  const { settings, logo, emit, log } = options
  async function get(): Promise<Branding> {
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
    async setLogo(image) {
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
      const changed = !previous || previous.organisationName !== next.organisationName || previous.welcomeLine !== next.welcomeLine || previous.accentColour !== next.accentColour
      if (changed) await announce()
    },
  }
}

/** A stored logo in an audit entry: its format and size, never its bytes. */
export function describeLogo(dataUrl: string): string {
  const bytes = Buffer.from(dataUrl.slice(PNG_DATA_URL.length), 'base64')
  const size = readImageSize(bytes, 'png')
  return size ? `PNG, ${size.width}×${size.height} px` : 'PNG'
}
