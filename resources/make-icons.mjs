#!/usr/bin/env node
// Renders resources/icon.svg to the PNGs electron-builder wants (out/icons/<n>x<n>.png: a folder of
// sizes for Linux, 256 px for Windows, 1024 px for macOS). Generated at packaging time, never committed.
// usage: node resources/make-icons.mjs [output folder]
import { mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

const here = dirname(fileURLToPath(import.meta.url))
const source = join(here, 'icon.svg')
const output = resolve(process.argv[2] ?? join(here, '..', 'out', 'icons'))
export const ICON_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024]

mkdirSync(output, { recursive: true })
for (const size of ICON_SIZES) {
  // Render at the target size from the vector (density scales the 256-unit viewBox), not by resampling.
  await sharp(source, { density: Math.max(72, Math.ceil((72 * size) / 256)) })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(join(output, `${size}x${size}.png`))
}
console.log(`icons: ${ICON_SIZES.length} PNGs in ${output}`)
