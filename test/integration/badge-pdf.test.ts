import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Visit } from '../../electron/shared/visits'
import { decodeQr, pdfPage, pdfText } from '../support/pdf'

// The visitor's badge as it prints: the real Badge component (rendered by React on the server side,
// with its styles and the print styles) in Chromium, printed to PDF, and the PDF read back with
// poppler (pdftotext; pdftoppm, then jsQR). No screen of the kiosk shows a visit's badge until the
// check-in does (the front desk's visits); its e2e then prints it from there with the same helpers.

// Renderer modules (TSX, DOM types) are compiled by vitest; the Node typecheck does not include
// them, so they are imported by path and typed here by hand.
interface BadgeModule {
  Badge: (props: { visit: Visit; faceCrop?: string | null }) => unknown
}
const renderer = (path: string) => import(/* @vite-ignore */ new URL(`../../renderer/src/${path}`, import.meta.url).pathname)

const root = new URL('../../renderer/src/frontdesk/', import.meta.url).pathname
const styles = ['Badge.css', 'PrintCard.css'].map((file) => readFileSync(join(root, file), 'utf8')).join('\n')

const visit: Visit = {
  id: 'V_2026-03-10-0001',
  personUuid: '7d1f2c3a-5b6e-4f70-8a91-b2c3d4e5f607',
  email: 'ines.garcia@example.org',
  firstName: 'Inès',
  hostId: 'h-1',
  hostName: 'Hugo Host',
  purpose: 'Meeting',
  checkedInAt: '2026-03-10T09:30:00.000Z',
  checkedOutAt: null,
  checkedOutBy: null,
  kioskId: 'kiosk-1',
  kioskName: null,
  inviteId: null,
}
// A 2×2 grey PNG: stands in for a kept face crop.
const CROP = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAAAAABX3VL4AAAADklEQVR4nGNoaGhgYGAADYQDAf2DZ/IAAAAASUVORK5CYII='

let browser: Browser
let work: string
let markup: (visit: Visit, faceCrop?: string | null, language?: string) => Promise<string>

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiosk-badge-'))
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] })
  const { Badge } = (await renderer('frontdesk/Badge.tsx')) as BadgeModule
  const { i18n } = (await renderer('i18n/index.ts')) as { i18n: { changeLanguage(code: string): Promise<unknown> } }
  const { createElement } = await import('react')
  const { renderToStaticMarkup } = await import('react-dom/server')
  markup = async (v, faceCrop = null, language = 'en') => {
    await i18n.changeLanguage(language)
    return renderToStaticMarkup(createElement(Badge as never, { visit: v, faceCrop }))
  }
})
afterAll(async () => {
  await browser?.close()
  rmSync(work, { recursive: true, force: true })
})

/** How many pictures a PDF holds (pdfimages lists each, and its transparency mask as an 'smask' row). */
const imagesIn = (pdf: string): number =>
  execFileSync('pdfimages', ['-list', pdf], { encoding: 'utf8' })
    .split('\n')
    .slice(2)
    .filter((line) => line.trim().split(/\s+/)[2] === 'image').length

/** The page as the kiosk lays it out when printing: the app under <body>, the card beside it in .print-only. */
async function printed(card: string, name: string): Promise<{ text: string; qr: string | null; images: number }> {
  const page = await browser.newPage()
  try {
    await page.setContent(`<!doctype html><html><head><style>${styles}</style></head><body><div id="root"><h1>Kiosk screen, not printed</h1></div><div class="print-only">${card}</div></body></html>`)
    const pdf = join(work, `${name}.pdf`)
    await page.pdf({ path: pdf, printBackground: true })
    const dir = mkdtempSync(join(work, `${name}-`))
    return { text: pdfText(pdf), qr: decodeQr(pdfPage(pdf, dir)), images: imagesIn(pdf) }
  } finally {
    await page.close()
  }
}

describe('the visitor’s badge, printed', () => {
  it('has the first name, the host, the date, until when, and a QR code that decodes to the visit; nothing else of the page', async () => {
    const { text, qr, images } = await printed(await markup(visit), 'badge')
    expect(text).toContain('Inès')
    expect(text).not.toContain(visit.email)
    expect(text).toContain('Hugo Host')
    expect(text).toMatch(/March 10, 2026/)
    expect(text).toMatch(/Valid until\s+Mar 10, 2026, 11:59/)
    expect(text).not.toContain('Kiosk screen, not printed')
    expect(qr).toBe(`kiosk-visit:${visit.id}`)
    // No face crop was given: no photo on the badge.
    expect(images).toBe(0)
  })

  it('shows the e-mail when the visitor gave no first name, and the front desk when no host; in the visitor’s language', async () => {
    const { text, qr } = await printed(await markup({ ...visit, firstName: null, hostId: null, hostName: null }, null, 'fr'), 'badge-fr')
    expect(text).toContain('ines.garcia@example.org')
    expect(text).toContain('Accueil')
    expect(text).toMatch(/Hôte/)
    expect(qr).toBe(`kiosk-visit:${visit.id}`)
  })

  it('carries the face crop only when the caller passes one (the tenant keeps crops and the visitor consented)', async () => {
    const { images } = await printed(await markup(visit, CROP), 'badge-photo')
    expect(images).toBe(1)
  })
})
