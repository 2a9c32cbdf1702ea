import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import sharp from 'sharp'
import { projectRoot } from '../support/process'
import { capture } from '../support/capture'
import { signInAs, startWebHost, type TestWebHost } from '../support/web-host'

// Face match as staff use it: photos from files (a phone's, a tiny one, the wrong kind), the camera,
// and the slot changes in between. Against the web host and the real embedded engine in Chromium.
const fixture = (name: string) => join(projectRoot, 'test/fixtures/generated', name)

let host: TestWebHost
/** A portrait phone photo of person A: 4000×3000 stored sideways with EXIF orientation 6 (3000×4000 upright), 3–5 MB. */
let phonePhoto: Buffer

test.beforeAll(async () => {
  host = await startWebHost()
  await expect.poll(async () => (await host.bridge('getEngineStatus')).state, { timeout: 60_000 }).toBe('running')
  const upright = await sharp(fixture('person-a1.jpg')).resize(3000, 4000, { fit: 'cover' }).raw().toBuffer({ resolveWithObject: true })
  // Sensor-like grain, so that the JPEG is as heavy as a phone's (a smooth upscale would compress to 1 MB).
  let seed = 1
  for (let i = 0; i < upright.data.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    upright.data[i] = Math.max(0, Math.min(255, upright.data[i]! + ((seed >> 16) % 25) - 12))
  }
  phonePhoto = await sharp(upright.data, { raw: upright.info }).rotate(-90).withMetadata({ orientation: 6 }).jpeg({ quality: 95 }).toBuffer()
  expect(phonePhoto.length).toBeGreaterThan(3 * 1024 * 1024)
  expect(phonePhoto.length).toBeLessThan(5 * 1024 * 1024)
})

test.afterAll(async () => {
  await host.stop()
})

async function openFaceMatch(page: Page) {
  await page.goto(host.launchUrl)
  await signInAs(page)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Face match/ }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Face match')
}

const slot = (page: Page, n: 1 | 2) => page.getByTestId(`match-slot-${n}`)
const chooser = (page: Page, n: 1 | 2) => page.getByLabel(`Choose a file for image ${n}`)

test('a refused file after a valid photo empties the slot and says why: the slot shows the last choice', async ({ page }) => {
  await openFaceMatch(page)
  await chooser(page, 1).setInputFiles(fixture('person-a1.jpg'))
  await chooser(page, 2).setInputFiles(fixture('person-a2.jpg'))
  await page.getByRole('button', { name: 'Compare' }).click()
  await expect(page.getByText('Same person')).toBeVisible()

  const tiny = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#808080' } }).png().toBuffer()
  await chooser(page, 2).setInputFiles({ name: 'tiny.png', mimeType: 'image/png', buffer: tiny })
  await expect(slot(page, 2).getByRole('img')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Compare' })).toBeDisabled()
  await expect(slot(page, 2).getByRole('alert')).toHaveText('tiny.png: The image is 100×100 px; each side must be at least 150 px. Choose a larger photo.')
  await expect(page.getByText('Same person')).toBeHidden()

  await chooser(page, 2).setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a photo') })
  await expect(slot(page, 2).getByRole('alert')).toHaveText('notes.txt: The file is not a JPEG or PNG image.')
  await expect(slot(page, 2).getByRole('img')).toHaveCount(0)
})

test('a phone photo is fitted on the kiosk and said so; one that cannot be decoded is refused with the reason', async ({ page }) => {
  await openFaceMatch(page)
  await chooser(page, 1).setInputFiles({ name: 'phone.jpg', mimeType: 'image/jpeg', buffer: phonePhoto })
  // Upright (EXIF applied) and within 1024 px per side.
  await expect(slot(page, 1).getByRole('status')).toHaveText('Photo was 3000×4000, resized to 768×1024 to fit.')
  await expect(slot(page, 1)).toContainText('phone.jpg, 768×1024 px')
  await chooser(page, 2).setInputFiles(fixture('person-a2.jpg'))
  await page.getByRole('button', { name: 'Compare' }).click()
  await expect(page.getByText('Same person')).toBeVisible()

  // A JPEG header claiming 2000×2000 with no picture data after it: too large, and it cannot be decoded to be fitted.
  const headerOnly = Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x07, 0xd0, 0x07, 0xd0, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xff, 0xd9])
  await chooser(page, 2).setInputFiles({ name: 'broken.jpg', mimeType: 'image/jpeg', buffer: headerOnly })
  await expect(slot(page, 2).getByRole('alert')).toHaveText('broken.jpg: The JPEG file could not be read; it may be damaged. Choose another photo.')
  await expect(slot(page, 2).getByRole('img')).toHaveCount(0)
})

test('after Clear, choosing the same file again fills the slot again', async ({ page }) => {
  await openFaceMatch(page)
  await chooser(page, 1).setInputFiles(fixture('person-a1.jpg'))
  await expect(slot(page, 1).getByRole('img')).toBeVisible()
  await slot(page, 1).getByRole('button', { name: 'Clear' }).click()
  await expect(slot(page, 1).getByRole('img')).toHaveCount(0)
  await chooser(page, 1).setInputFiles(fixture('person-a1.jpg'))
  await expect(slot(page, 1).getByRole('img')).toBeVisible()
  await expect(slot(page, 1)).toContainText('person-a1.jpg')
})

test('an error about the previous images goes when an image is replaced', async ({ page }) => {
  await openFaceMatch(page)
  await chooser(page, 1).setInputFiles(fixture('person-a1.jpg'))
  await chooser(page, 2).setInputFiles(fixture('no-face.jpg'))
  await page.getByRole('button', { name: 'Compare' }).click()
  const failed = page.getByRole('alert').filter({ hasText: 'The comparison did not run' })
  await expect(failed).toBeVisible()
  await chooser(page, 2).setInputFiles(fixture('person-a2.jpg'))
  await expect(slot(page, 2).getByRole('img', { name: /person-a2\.jpg/ })).toBeVisible()
  await expect(failed).toBeHidden()
})

test('the camera step for one slot leaves the other slot as it was', async ({ page }) => {
  await openFaceMatch(page)
  await chooser(page, 1).setInputFiles(fixture('person-a1.jpg'))
  await expect(slot(page, 1).getByRole('img', { name: /person-a1\.jpg/ })).toBeVisible()
  await slot(page, 2).getByRole('button', { name: 'Use the camera' }).click()
  await capture(slot(page, 2).getByRole('img'))
  await expect(slot(page, 2)).toContainText('camera photo')
  // The file's name still shown, as text (not only in the preview's alt text).
  await expect(slot(page, 1)).toContainText('person-a1.jpg')
  await expect(page.getByRole('button', { name: 'Compare' })).toBeEnabled()
})

test('a photo with two faces: the error names the second photo in plain words, says to choose another file, and stays under Compare', async ({ page }) => {
  await openFaceMatch(page)
  await chooser(page, 1).setInputFiles(fixture('person-a1.jpg'))
  await chooser(page, 2).setInputFiles(fixture('two-faces.jpg'))
  const compare = page.getByRole('button', { name: 'Compare' })
  const before = (await compare.boundingBox())!
  await compare.click()
  const failed = page.getByRole('alert').filter({ hasText: 'The comparison did not run' })
  await expect(failed).toBeVisible()
  await expect(page.getByTestId('match-error')).toHaveText(/^The second photo \(Image 2\) shows \d faces; face match needs exactly one face in each photo\.$/)
  await expect(failed).toContainText('Choose another file for the second photo, showing only the person to compare.')
  // No engine words, and no "capture again" for a file.
  await expect(failed).not.toContainText(/HTTP|BioEngine|Image2|capture again/)
  // The error is under Compare: the button did not move.
  const after = (await compare.boundingBox())!
  expect(Math.round(after.y)).toBe(Math.round(before.y))
  const errorBox = (await failed.boundingBox())!
  expect(errorBox.y).toBeGreaterThan(after.y)
})

test('a chosen file is named in the slot, not contradicted by the browser’s own "No file chosen"', async ({ page }) => {
  await openFaceMatch(page)
  await chooser(page, 1).setInputFiles(fixture('person-a1.jpg'))
  await expect(slot(page, 1).getByRole('img', { name: /person-a1\.jpg/ })).toBeVisible()
  await expect(slot(page, 1).locator('figcaption')).toContainText('person-a1.jpg')
  // The browser's control (its "No file chosen" text) is not drawn: its label is the button people see.
  const input = (await chooser(page, 1).boundingBox())!
  expect(input.width * input.height).toBeLessThanOrEqual(1)
  await expect(slot(page, 1).locator('label', { hasText: 'Choose a file' })).toBeVisible()
})
