import { KioskError } from '../../shared/errors'
import { LOGO_MAX_SIDE, LOGO_MAX_STORED_BYTES } from '../../shared/branding'
import { lookPatch, type Look, type LookPatch } from '../../shared/frontdesk-api'
import { detectImageFormat, readImageSize } from '../../shared/image-limits'
import { defaultSettings } from '../../shared/settings'
import type { FrontDesk } from './front-desk'
import type { StoredLook } from './look-repository'
import type { RulesContext } from './records'

type LookRules = Pick<FrontDesk, 'getLook' | 'setLook'>

/** The look before anyone set it: a kiosk's defaults. */
const DEFAULT_LOOK: StoredLook = {
  organisationName: defaultSettings.organisationName,
  welcomeLine: defaultSettings.welcomeLine,
  accentColour: defaultSettings.accentColour,
  visitorRetentionDays: defaultSettings.visitorRetentionDays,
  logo: null,
}

const refuse = (reason: string) => new KioskError('INVALID_INPUT', `The look was not accepted: ${reason}`)

const lookOf = (stored: StoredLook): Look => ({
  organisationName: stored.organisationName,
  welcomeLine: stored.welcomeLine,
  accentColour: stored.accentColour,
  visitorRetentionDays: stored.visitorRetentionDays,
  logo: stored.logo === null ? null : stored.logo.toString('base64'),
})

/**
 * The logo as the site keeps it: only what a kiosk's services make of an upload (re-encoded by
 * sharp to a PNG, electron/services/branding/logo-image.ts), checked here by its bytes: a PNG
 * whose header reads, at most LOGO_MAX_SIDE per side and LOGO_MAX_STORED_BYTES.
 */
function checkedLogo(base64: string): Buffer {
  const png = Buffer.from(base64, 'base64')
  if (png.length === 0 || png.toString('base64').replace(/=+$/, '') !== base64.replace(/=+$/, '')) throw refuse('the logo must be a PNG sent as base64.')
  if (png.length > LOGO_MAX_STORED_BYTES) throw refuse(`the logo weighs more than ${LOGO_MAX_STORED_BYTES / 1024} KB.`)
  if (detectImageFormat(png) !== 'png') throw refuse('the logo must be a PNG (the kiosk re-encodes an upload to one).')
  const size = readImageSize(png, 'png')
  if (!size || size.width < 1 || size.height < 1) throw refuse('the logo’s size cannot be read.')
  if (size.width > LOGO_MAX_SIDE || size.height > LOGO_MAX_SIDE) throw refuse(`the logo is ${size.width}×${size.height} px; at most ${LOGO_MAX_SIDE} px a side.`)
  return png
}

/**
 * The organisation's look, the site's: the name, welcome line, accent, visitor
 * retention and logo every kiosk shows and applies. Checked with the settings' own rules; a change
 * is announced (`look`) once committed, and kiosks read it again.
 */
export function lookRules(context: RulesContext): LookRules {
  return {
    async getLook() {
      return lookOf((await context.records.look.get()) ?? DEFAULT_LOOK)
    },

    async setLook(patch: LookPatch) {
      const parsed = lookPatch.safeParse(patch)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        throw refuse(`${issue?.path.join('.') || 'the look'} ${issue?.message ?? 'is not valid'}.`)
      }
      const { logo, ...settings } = parsed.data
      const stored: Partial<StoredLook> = { ...settings, ...(logo === undefined ? {} : { logo: logo === null ? null : checkedLogo(logo) }) }
      const look = await context.transaction(async (records) => {
        await records.look.update(stored, DEFAULT_LOOK, context.now())
        return (await records.look.get())!
      })
      try {
        context.announce({ type: 'look' })
      } catch {
        // a nudge: the look is committed, and kiosks read it again when they reconnect
      }
      return lookOf(look)
    },
  }
}
