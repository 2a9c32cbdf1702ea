import { mkdtempSync, rmSync, statSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { sanitiseLogo } from '../../electron/services/branding/logo-image'
import { createLogoStore } from '../../electron/services/branding/logo-store'
import { LOGO_MAX_SIDE } from '../../electron/shared/branding'
import { rejection } from '../support/rejection'

// Real sharp (libvips, librsvg) on real files: what an administrator's upload becomes.

const dirs: string[] = []
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

const blue = { r: 11, g: 92, b: 173, alpha: 1 }
const png = (width: number, height: number) => sharp({ create: { width, height, channels: 4, background: blue } }).png().toBuffer()

/** A PNG chunk (length, type, data, CRC), to smuggle text into a file the way editors do. */
function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  body.copy(out, 4)
  out.writeUInt32BE(crc32(body), 8 + data.length)
  return out
}
const withTextChunk = (file: Buffer, text: string) => Buffer.concat([file.subarray(0, file.length - 12), chunk('tEXt', Buffer.from(`Comment\0${text}`, 'latin1')), file.subarray(file.length - 12)])

const svg = (body: string, attrs = 'width="200" height="50" viewBox="0 0 200 50"') => Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ${attrs}>${body}</svg>`)
const reasonFor = async (bytes: Uint8Array) => (await rejection(sanitiseLogo(bytes))).message

describe('the logo, sanitised', () => {
  it('re-encodes a PNG within bounds and drops its metadata', async () => {
    const tagged = withTextChunk(await sharp(await png(2000, 500)).withExif({ IFD0: { ImageDescription: 'exif-secret' } }).png().toBuffer(), 'text-secret')
    expect(tagged.includes('exif-secret')).toBe(true)
    expect(tagged.includes('text-secret')).toBe(true)
    const logo = await sanitiseLogo(tagged)
    expect(logo).toMatchObject({ from: 'png', width: LOGO_MAX_SIDE, height: 128 })
    expect(logo.png.includes('exif-secret')).toBe(false)
    expect(logo.png.includes('text-secret')).toBe(false)
    const meta = await sharp(logo.png).metadata()
    expect(meta).toMatchObject({ format: 'png', width: 512, height: 128 })
    expect(meta.exif).toBeUndefined()
    expect(meta.xmp).toBeUndefined()
    expect(meta.comments ?? []).toEqual([])
    // A small one is not blown up.
    expect(await sanitiseLogo(await png(120, 40))).toMatchObject({ width: 120, height: 40 })
  })

  it('draws a plain SVG as a PNG, its longer side at the bound', async () => {
    const logo = await sanitiseLogo(
      svg('<defs><linearGradient id="g"><stop offset="0" stop-color="#0b5cad"/></linearGradient><style>.a{fill:url(#g)}</style></defs><rect id="r" class="a" width="200" height="50"/><use href="#r" xlink:href="#r"/><text x="10" y="30">Ü</text>'),
    )
    expect(logo).toMatchObject({ from: 'svg', width: 512, height: 128 })
    expect((await sharp(logo.png).metadata()).format).toBe('png')
    // Declared tiny, still drawn sharp at the bound.
    expect(await sanitiseLogo(svg('<circle cx="8" cy="8" r="8"/>', 'width="16" height="16"'))).toMatchObject({ width: 512, height: 512 })
  })

  it.each([
    ['a script', '<script>alert(1)</script>', /<script> element/],
    ['foreignObject', '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>', /<foreignObject> element/],
    ['an external image', '<image href="https://example.test/x.png" width="10" height="10"/>', /<image> element/],
    ['a local file through use', '<use xlink:href="file:///etc/passwd#x"/>', /outside the file \(xlink:href\)/],
    ['an external url() in a style attribute', '<rect width="5" height="5" style="fill:url(https://example.test/p.svg#p)"/>', /url\(\) in style/],
    ['an external url() in a fill', '<rect width="5" height="5" fill="url(\'http://example.test/#p\')"/>', /url\(\) in fill/],
    ['an @import', '<style>@import "https://example.test/a.css";</style>', /imports another/],
    ['an external url() in a style sheet', '<style>rect{fill:url(data:image/svg+xml;base64,AAAA)}</style>', /url\(\) in <style>/],
    ['an event handler', '<rect width="5" height="5" onload="alert(1)"/>', /event handler \(onload\)/],
    ['animation', '<set attributeName="href" to="https://example.test"/>', /<set> element/],
    ['an XHTML element', '<html:iframe xmlns:html="http://www.w3.org/1999/xhtml" src="https://example.test"/>', /from outside SVG/],
    ['a style-sheet instruction', '', /xml-stylesheet/],
  ])('refuses an SVG with %s', async (_what, body, reason) => {
    const file = body === '' ? Buffer.from('<?xml-stylesheet href="https://example.test/a.css"?><svg xmlns="http://www.w3.org/2000/svg" width="5" height="5"/>') : svg(body)
    const message = await reasonFor(file)
    expect(message).toMatch(/^The logo was not accepted: the SVG is not safe to use: /)
    expect(message).toMatch(reason)
  })

  it('refuses entities, a DOCTYPE and a file that is not XML', async () => {
    const laughs = '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg">&b;</svg>'
    expect(await reasonFor(Buffer.from(laughs))).toMatch(/declares a DOCTYPE or entities/)
    expect(await reasonFor(Buffer.from('<!DOCTYPE svg SYSTEM "file:///etc/passwd"><svg xmlns="http://www.w3.org/2000/svg"/>'))).toMatch(/DOCTYPE/)
    expect(await reasonFor(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>'))).toMatch(/not well-formed XML/)
    expect(await reasonFor(Buffer.from('<svg><rect/></svg>'))).toMatch(/not an <svg> element in the SVG namespace/)
    // Checked as UTF-8, so it must be drawn as UTF-8: another declared encoding could spell markup the check never saw.
    expect(await reasonFor(Buffer.from('<?xml version="1.0" encoding="UTF-7"?><svg xmlns="http://www.w3.org/2000/svg">+ADw-script+AD4-alert(1)+ADw-/script+AD4-</svg>'))).toMatch(/declares the encoding UTF-7; only UTF-8/)
    expect((await sanitiseLogo(Buffer.from("<?xml version='1.0' encoding='utf-8'?><svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'/>"))).from).toBe('svg')
  })

  it('judges by content, not name, and keeps to the size limit', async () => {
    const jpeg = await sharp({ create: { width: 50, height: 50, channels: 3, background: blue } }).jpeg().toBuffer()
    expect(await reasonFor(jpeg)).toBe('The logo was not accepted: it is not a PNG or SVG image.')
    expect(await reasonFor(Buffer.from('hello, I am logo.png'))).toBe('The logo was not accepted: it is not a PNG or SVG image.')
    expect(await reasonFor(new Uint8Array())).toBe('The logo was not accepted: the file is empty.')
    expect(await reasonFor(Buffer.alloc(256 * 1024 + 1, 1))).toBe('The logo was not accepted: the file is 257 KB; the limit is 256 KB.')
    const good = await png(100, 100)
    expect(await reasonFor(Buffer.concat([good.subarray(0, 40), Buffer.alloc(200, 7)]))).toMatch(/^The logo was not accepted: the PNG file is damaged/)
  })

  it('refuses a small PNG that claims a huge size, before decoding it', async () => {
    const file = await png(100, 100)
    const huge = Buffer.from(file)
    huge.writeUInt32BE(30_000, 16)
    huge.writeUInt32BE(30_000, 20)
    huge.writeUInt32BE(crc32(huge.subarray(12, 29)), 29) // a valid IHDR, so the claim is believed
    expect(await reasonFor(huge)).toMatch(/30000×30000 px; at most 16777216 pixels/)
  })
})

describe('the logo store (real files)', () => {
  it('keeps the PNG private (0600 in a 0700 folder), replaces it atomically and removes it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-logo-'))
    dirs.push(dataDir)
    const store = createLogoStore({ dataDir, log: () => {} })
    expect(await store.read()).toBeNull()
    const first = await png(10, 10)
    await store.write(first)
    expect(statSync(store.file).mode & 0o777).toBe(0o600)
    expect(statSync(join(dataDir, 'branding')).mode & 0o777).toBe(0o700)
    expect(await store.read()).toEqual(first)
    const second = await png(20, 20)
    await store.write(second)
    expect(await store.read()).toEqual(second)
    expect(readdirSync(join(dataDir, 'branding'))).toEqual(['logo.png'])
    await store.clear()
    await store.clear()
    expect(await store.read()).toBeNull()
  })
})
