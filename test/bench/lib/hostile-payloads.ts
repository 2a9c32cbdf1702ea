import sharp from 'sharp'

/**
 * What a hostile caller sends in the hostile section: bodies just under the engine's 32 MB body
 * limit that are expensive to parse, and identify/verify bodies whose every input is a large image
 * the engine must decode (amplification: one request, a hundred decodes and inferences).
 */

const MB = 1024 * 1024

/** `{"a":{"a":…1…}}` about `mb` MB long: millions of nesting levels (JSON.parse takes seconds). */
export function deeplyNestedJson(mb: number): Buffer {
  const levels = Math.floor((mb * MB) / 6) // '{"a":' + '}' per level
  return Buffer.from(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`)
}

/** `{"identifyInputs":[{"a":0},{"a":1},…]}` about `mb` MB long: millions of small objects. */
export function manySmallObjectsJson(mb: number): Buffer {
  const parts: string[] = []
  let length = 0
  for (let i = 0; length < mb * MB - 64; i++) {
    const item = `{"a":${i % 10}}`
    parts.push(item)
    length += item.length + 1
  }
  return Buffer.from(`{"identifyInputs":[${parts.join(',')}]}`)
}

let blankPngs: Promise<string[]> | undefined

/**
 * Four blank side×side PNGs (a few shades of grey, so not every sample is the same bytes), as
 * base64. Each is only ~60 KB but decodes to 48 MB of pixels at 4096². Made once per run.
 */
export function blankPngsBase64(side = 4096): Promise<string[]> {
  blankPngs ??= Promise.all(
    ['#808080', '#7a7a7a', '#868686', '#747474'].map(async (background) =>
      (await sharp({ create: { width: side, height: side, channels: 3, background } }).png({ compressionLevel: 9 }).toBuffer()).toString('base64'),
    ),
  )
  return blankPngs
}

/** `count` identify inputs, each a blank PNG sample of `templateType`. */
export function identifyWithSamples(templateType: string, samples: string[], count: number): Buffer {
  return Buffer.from(JSON.stringify({ identifyInputs: Array.from({ length: count }, (_, i) => ({ templateType, sample: samples[i % samples.length] })) }))
}

/** `count` verify inputs, each a blank PNG sample of `templateType`. */
export function verifyWithSamples(templateType: string, samples: string[], count: number): Buffer {
  return Buffer.from(JSON.stringify({ verifyInputs: Array.from({ length: count }, (_, i) => ({ templateType, sample: samples[i % samples.length] })) }))
}
