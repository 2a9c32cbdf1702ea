import { z } from 'zod'

/**
 * The organisation's look on the visitor screens: its name, welcome line and accent (settings, see
 * ./settings.ts) and a logo. The logo is an administrator's upload, PNG or SVG; the services keep
 * only their own re-encoded PNG of it (electron/services/branding), never the file as given.
 */

/** The largest upload accepted, before any decoding. */
export const LOGO_MAX_BYTES = 256 * 1024
/** The stored PNG fits in this many pixels per side (a top bar's logo, sharp on a 4K display). */
export const LOGO_MAX_SIDE = 512
/** What the stored PNG may weigh: it travels in every branding event. */
export const LOGO_MAX_STORED_BYTES = 512 * 1024

const base64 = /^[A-Za-z0-9+/]*={0,2}$/

/** Sets the logo (the file's bytes, base64) or, with null, removes it. */
export const setLogoInput = z.strictObject({
  image: z
    .string()
    .max(Math.ceil(LOGO_MAX_BYTES / 3) * 4, `the logo must be at most ${LOGO_MAX_BYTES / 1024} KB`)
    .regex(base64, 'the logo must be sent as base64')
    .nullable(),
})
export type SetLogoInput = z.infer<typeof setLogoInput>

/** The stored logo as the page shows it: always the services' own PNG. */
export const logoDataUrl = z
  .string()
  .max(Math.ceil(LOGO_MAX_STORED_BYTES / 3) * 4 + 32)
  .regex(/^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/)

/** What the visitor screens need to look like the organisation's kiosk. */
export const brandingSchema = z.strictObject({
  organisationName: z.string(),
  welcomeLine: z.string(),
  accentColour: z.string().regex(/^#[0-9a-f]{6}$/),
  logo: logoDataUrl.nullable(),
})
export type Branding = z.infer<typeof brandingSchema>
