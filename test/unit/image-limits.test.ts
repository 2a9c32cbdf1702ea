import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { checkImage, detectImageFormat, fitWithinLimits, MATCH_IMAGE_LIMITS, readImageSize } from '../../electron/shared/image-limits'

// Real encoders (sharp) make the images, so header parsing is checked against real files.
const image = (width: number, height: number, format: 'jpeg' | 'png', options: { progressive?: boolean } = {}) => {
  const canvas = sharp({ create: { width, height, channels: 3, background: { r: 120, g: 80, b: 60 } } })
  return (format === 'jpeg' ? canvas.jpeg({ progressive: options.progressive ?? false }) : canvas.png()).toBuffer()
}

describe('image limits', () => {
  let jpeg: Buffer
  let png: Buffer
  beforeAll(async () => {
    jpeg = await image(640, 480, 'jpeg')
    png = await image(300, 200, 'png')
  })

  it('recognises JPEG and PNG by content, not by name', () => {
    expect(detectImageFormat(jpeg)).toBe('jpeg')
    expect(detectImageFormat(png)).toBe('png')
    expect(detectImageFormat(Buffer.from('GIF89a......'))).toBeNull()
    expect(detectImageFormat(new Uint8Array())).toBeNull()
  })

  it('reads dimensions from the header, for baseline and progressive JPEGs and PNGs', async () => {
    expect(readImageSize(jpeg, 'jpeg')).toEqual({ width: 640, height: 480 })
    expect(readImageSize(await image(1024, 151, 'jpeg', { progressive: true }), 'jpeg')).toEqual({ width: 1024, height: 151 })
    expect(readImageSize(png, 'png')).toEqual({ width: 300, height: 200 })
  })

  it('accepts images within 150–1024 px and 2 MB', () => {
    expect(checkImage(jpeg)).toEqual({ ok: true, format: 'jpeg', width: 640, height: 480, bytes: jpeg.length })
  })

  it.each([
    [149, 300, 'at least 150 px'],
    [300, 149, 'at least 150 px'],
    [1025, 300, 'at most 1024 px'],
    [300, 1025, 'at most 1024 px'],
  ])('refuses %i×%i px with a plain reason', async (w, h, reason) => {
    const verdict = checkImage(await image(w, h, 'png'))
    expect(verdict).toMatchObject({ ok: false })
    if (!verdict.ok) expect(verdict.reason).toContain(reason)
  })

  it('refuses empty, oversize, foreign and damaged files', () => {
    expect(checkImage(new Uint8Array())).toEqual({ ok: false, reason: 'The file is empty.' })
    const big = new Uint8Array(MATCH_IMAGE_LIMITS.maxBytes + 1)
    big.set(jpeg.subarray(0, 4))
    expect(checkImage(big)).toMatchObject({ ok: false, reason: expect.stringContaining('limit is 2.0 MB') })
    expect(checkImage(Buffer.from('%PDF-1.7 not an image'))).toMatchObject({ ok: false, reason: 'The file is not a JPEG or PNG image.' })
    expect(checkImage(jpeg.subarray(0, 20))).toMatchObject({ ok: false, reason: expect.stringContaining('damaged') })
    expect(checkImage(png.subarray(0, 16))).toMatchObject({ ok: false, reason: expect.stringContaining('damaged') })
  })

  it('reads a PNG that declares huge dimensions without decoding it', () => {
    const forged = Buffer.from(png)
    forged.writeUInt32BE(100_000, 16)
    forged.writeUInt32BE(100_000, 20)
    expect(checkImage(forged)).toMatchObject({ ok: false, reason: expect.stringContaining('100000×100000') })
  })
})

describe('fitWithinLimits', () => {
  it('scales a large camera frame down to at most 1024 px, keeping the aspect ratio', () => {
    expect(fitWithinLimits(1920, 1080)).toEqual({ width: 1024, height: 576, scale: 1024 / 1920 })
    expect(fitWithinLimits(1080, 1920)).toEqual({ width: 576, height: 1024, scale: 1024 / 1920 })
  })

  it('leaves a frame that already fits as it is, and never enlarges', () => {
    expect(fitWithinLimits(640, 480)).toEqual({ width: 640, height: 480, scale: 1 })
  })

  it('gives up when a side would end below 150 px', () => {
    expect(fitWithinLimits(4000, 400)).toBeNull() // 1024 × 102
    expect(fitWithinLimits(100, 100)).toBeNull()
    expect(fitWithinLimits(0, 480)).toBeNull()
  })
})
