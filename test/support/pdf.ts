import { execFileSync } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import jsQR from 'jsqr'

/** A PDF read back as a person or a scanner would: its text (poppler's pdftotext), and the QR codes on its first page. */

export function pdfText(pdf: string): string {
  return execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' })
}

/** The first page as an RGB image (poppler's pdftoppm writes binary PPM, P6), at `dpi`. */
export function pdfPage(pdf: string, dir: string, dpi = 200): { file: string; width: number; height: number; rgb: Buffer } {
  const prefix = join(dir, 'page')
  execFileSync('pdftoppm', ['-r', String(dpi), '-f', '1', '-l', '1', pdf, prefix])
  const file = join(dir, readdirSync(dir).find((name) => name.startsWith('page') && name.endsWith('.ppm'))!)
  const bytes = readFileSync(file)
  // "P6", width, height, max value, each after whitespace; then one whitespace byte and the pixels.
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(bytes.subarray(0, 64).toString('latin1'))
  if (!header || header[3] !== '255') throw new Error(`${file} is not an 8-bit binary PPM`)
  const width = Number(header[1])
  const height = Number(header[2])
  return { file, width, height, rgb: bytes.subarray(header[0].length, header[0].length + width * height * 3) }
}

/** How many raster images a PDF holds (poppler's pdfimages; vector drawings such as an SVG QR code are not images). */
export function pdfImageCount(pdf: string): number {
  // Two header lines, then one line per image.
  return execFileSync('pdfimages', ['-list', pdf], { encoding: 'utf8' }).trim().split('\n').length - 2
}

/** The text of the QR code on an RGB image, or null (jsQR, the decoder the kiosk uses). */
export function decodeQr({ width, height, rgb }: { width: number; height: number; rgb: Buffer }): string | null {
  const rgba = new Uint8ClampedArray(width * height * 4)
  for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) {
    rgba[j] = rgb[i]!
    rgba[j + 1] = rgb[i + 1]!
    rgba[j + 2] = rgb[i + 2]!
    rgba[j + 3] = 255
  }
  return jsQR(rgba, width, height)?.data ?? null
}
