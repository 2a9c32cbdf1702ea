// Regenerates the README's screenshots from the last e2e run (test/e2e/layout.spec.ts saves every
// screen at every kiosk size in test-results/screens/<size>/): the 1366×768 ones, as small JPEGs.
// Usage: npx playwright test test/e2e/layout.spec.ts && node scripts/readme-screenshots.mjs
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'

const root = new URL('..', import.meta.url).pathname
const from = join(root, 'test-results/screens/1366x768')
const to = join(root, 'resources/screenshots')
/** README image name ← the screen's screenshot name. */
const shots = {
  home: 'home',
  'enroll-capture': 'enroll-retake',
  'enroll-review': 'enroll-review',
  'face-match': 'match-result',
  'persons-detail': 'persons-detail',
  'home-waiting': 'home-banner',
  'home-arabic': 'ar-home',
  'enroll-capture-arabic': 'ar-enroll-capture',
}

mkdirSync(to, { recursive: true })
const missing = Object.values(shots).filter((name) => !existsSync(join(from, `${name}.png`)))
if (missing.length > 0) {
  console.error(`No screenshot for ${missing.join(', ')} in ${from}: run test/e2e/layout.spec.ts first.`)
  process.exit(1)
}
for (const [image, name] of Object.entries(shots)) {
  const info = await sharp(join(from, `${name}.png`)).resize({ width: 800 }).jpeg({ quality: 72, mozjpeg: true }).toFile(join(to, `${image}.jpg`))
  console.log(`resources/screenshots/${image}.jpg ${info.width}×${info.height} ${Math.round(info.size / 1024)} KB`)
}
