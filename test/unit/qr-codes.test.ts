import jsQR from 'jsqr'
import { describe, expect, it } from 'vitest'
import { readFrameCode } from '../../renderer/src/frontdesk/qr-scan'
import { qrPath } from '../../renderer/src/frontdesk/qr-path'
import { visitQrText } from '../../renderer/src/frontdesk/badge-facts'

// The kiosk's QR codes both ways, with the field-standard decoder (jsQR): what QrCode draws decodes
// to its text, and a frame is read as an invite only when it carries one.

/** Rasterises QrCode's SVG path (`M<x> <y>h1v1h-1z` per dark module) at `scale` pixels a module, on a grey camera-like margin. */
function frameOf(text: string, scale = 6, margin = 40): { data: Uint8ClampedArray; width: number; height: number } {
  const { path, size } = qrPath(text)
  const width = size * scale + 2 * margin
  const data = new Uint8ClampedArray(width * width * 4).fill(128)
  const paint = (x0: number, y0: number, w: number, value: number) => {
    for (let y = y0; y < y0 + w; y++) for (let x = x0; x < x0 + w; x++) data.set([value, value, value, 255], (y * width + x) * 4)
  }
  paint(margin, margin, size * scale, 255)
  for (const [, x, y] of path.matchAll(/M(\d+) (\d+)/g)) {
    for (let dy = 0; dy < scale; dy++) for (let dx = 0; dx < scale; dx++) data.set([0, 0, 0, 255], ((margin + Number(y) * scale + dy) * width + margin + Number(x) * scale + dx) * 4)
  }
  return { data, width, height: width }
}

describe('QR codes', () => {
  it('reads an invite token from a frame', () => {
    const token = `KI1.${'a'.repeat(22)}.t0abcd.${'b'.repeat(43)}`
    expect(readFrameCode(frameOf(token))).toEqual({ kind: 'invite', token })
  })

  it('tells another QR code (a badge, a web address) from an invite, and a frame without one', () => {
    expect(readFrameCode(frameOf(visitQrText('visit-1')))).toEqual({ kind: 'other' })
    expect(readFrameCode(frameOf('https://example.org/'))).toEqual({ kind: 'other' })
    const blank = { data: new Uint8ClampedArray(200 * 200 * 4).fill(200), width: 200, height: 200 }
    expect(readFrameCode(blank)).toBeNull()
  })

  it('draws a badge code that decodes to the visit', () => {
    const frame = frameOf(visitQrText('V_123-abc'), 4)
    expect(jsQR(frame.data, frame.width, frame.height)?.data).toBe('kiosk-visit:V_123-abc')
  })
})
