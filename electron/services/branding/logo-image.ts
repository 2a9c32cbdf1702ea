import sharp from 'sharp'
import { LOGO_MAX_BYTES, LOGO_MAX_SIDE, LOGO_MAX_STORED_BYTES } from '../../shared/branding'
import { KioskError } from '../../shared/errors'
import { detectImageFormat } from '../../shared/image-limits'
import { checkSvg, UnsafeSvg } from './svg-check'

/** A decoded image larger than this is refused before decoding (a small file can claim a huge size). */
const MAX_INPUT_PIXELS = 4096 * 4096

export interface SanitisedLogo {
  png: Buffer
  width: number
  height: number
  from: 'png' | 'svg'
}

const refuse = (reason: string) => new KioskError('INVALID_INPUT', `The logo was not accepted: ${reason}`)

/**
 * An administrator's logo file as the kiosk keeps it: PNG or SVG by content (never by name), at
 * most LOGO_MAX_BYTES, re-encoded by sharp to a PNG of at most LOGO_MAX_SIDE per side with no
 * metadata (sharp drops EXIF, XMP, ICC and text chunks unless told to keep them). An SVG must
 * pass ./svg-check.ts first; what is stored and shown is only the PNG drawn from it.
 */
export async function sanitiseLogo(bytes: Uint8Array): Promise<SanitisedLogo> {
  if (bytes.length === 0) throw refuse('the file is empty.')
  if (bytes.length > LOGO_MAX_BYTES) throw refuse(`the file is ${kb(bytes.length)}; the limit is ${kb(LOGO_MAX_BYTES)}.`)
  if (detectImageFormat(bytes) === 'png') return encode(Buffer.from(bytes), 'png', 72)
  const text = svgText(bytes)
  if (text === null) throw refuse('it is not a PNG or SVG image.')
  try {
    checkSvg(text)
  } catch (error) {
    if (error instanceof UnsafeSvg) throw refuse(`the SVG is not safe to use: ${error.message}. Export a plain SVG, or a PNG.`)
    throw error
  }
  // Drawn at a density that makes its longer side LOGO_MAX_SIDE, whatever size it declares.
  const declared = await sharp(Buffer.from(bytes), { limitInputPixels: MAX_INPUT_PIXELS }).metadata().catch(() => null)
  if (!declared?.width || !declared.height) throw refuse('the SVG could not be drawn (it needs a width and height or a viewBox).')
  const density = Math.min(2400, Math.max(1, (72 * LOGO_MAX_SIDE) / Math.max(declared.width, declared.height)))
  return encode(Buffer.from(bytes), 'svg', density)
}

async function encode(input: Buffer, from: 'png' | 'svg', density: number): Promise<SanitisedLogo> {
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>
  try {
    meta = await sharp(input, { density, limitInputPixels: false }).metadata()
  } catch {
    throw refuse(`the ${from.toUpperCase()} file is damaged or could not be read.`)
  }
  if (meta.format !== from) throw refuse('it is not a PNG or SVG image.')
  if (!meta.width || !meta.height) throw refuse(`the ${from.toUpperCase()} file is damaged: its size cannot be read.`)
  if (meta.width * meta.height > MAX_INPUT_PIXELS) throw refuse(`the image is ${meta.width}×${meta.height} px; at most ${MAX_INPUT_PIXELS} pixels are accepted.`)
  const draw = (palette: boolean) =>
    sharp(input, { density, limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .resize({ width: LOGO_MAX_SIDE, height: LOGO_MAX_SIDE, fit: 'inside', withoutEnlargement: from === 'png' })
      .png({ compressionLevel: 9, palette })
      .toBuffer({ resolveWithObject: true })
  try {
    let out = await draw(false)
    // A photo-like logo can be heavy as a full-colour PNG; a palette keeps it small enough to send in events.
    if (out.data.length > LOGO_MAX_STORED_BYTES) out = await draw(true)
    if (out.data.length > LOGO_MAX_STORED_BYTES) throw refuse(`even at ${out.info.width}×${out.info.height} px it weighs ${kb(out.data.length)}; a logo must fit in ${kb(LOGO_MAX_STORED_BYTES)}. Use one with fewer details.`)
    return { png: out.data, width: out.info.width, height: out.info.height, from }
  } catch (error) {
    if (error instanceof KioskError) throw error
    throw refuse(`the ${from.toUpperCase()} file is damaged or could not be read.`)
  }
}

/** The file as SVG text: UTF-8 (a BOM allowed) whose first element is <svg>; null when it is not. */
function svgText(bytes: Uint8Array): string | null {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)
  } catch {
    return null
  }
  // Past an XML declaration, comments and white space, the first element must be svg.
  const start = text.replace(/^\s*(<\?xml[^>]*\?>)?(\s*<!--[\s\S]*?-->)*\s*/, '')
  return /^<svg[\s>/]/i.test(start) || /^<!DOCTYPE/i.test(start) ? text : null
}

const kb = (bytes: number) => `${Math.ceil(bytes / 1024)} KB`
