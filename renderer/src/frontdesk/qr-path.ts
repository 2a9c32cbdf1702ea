import { create } from 'qrcode'

/** Modules of white space around the code, as the QR standard asks, so a camera finds its edges. */
const QUIET = 4

/** The dark modules of `text` as one SVG path: drawn, not a bitmap, so it prints sharp at any size. */
export function qrPath(text: string): { path: string; size: number } {
  const { modules } = create(text, { errorCorrectionLevel: 'M' })
  let path = ''
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) path += `M${col + QUIET} ${row + QUIET}h1v1h-1z`
    }
  }
  return { path, size: modules.size + 2 * QUIET }
}
