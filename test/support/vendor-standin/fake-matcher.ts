import { createHash } from 'node:crypto'

/**
 * NOT face recognition. A stand-in's matcher: a sample's "template" is the SHA-256 of its image
 * bytes, so the same image matches itself and nothing else. Enough to prove that a client sends,
 * stores and reads the right things; says nothing about faces.
 */

export const TEMPLATE_TYPE = 'Face:StandinFace'
export const PLUGIN = 'StandinFace'

export interface ImageInfo {
  kind: 'jpeg' | 'png' | null
  width: number | null
  height: number | null
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** Format by magic bytes, dimensions from the PNG IHDR or the JPEG SOFn header. */
export function imageInfo(data: Buffer): ImageInfo {
  if (data.length >= 24 && data.subarray(0, 8).equals(PNG_MAGIC)) return { kind: 'png', width: data.readUInt32BE(16), height: data.readUInt32BE(20) }
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8 || data[2] !== 0xff) return { kind: null, width: null, height: null }
  let at = 2
  while (at + 9 < data.length) {
    if (data[at] !== 0xff) break
    const marker = data[at + 1] ?? 0
    if (marker === 0xff) {
      at++ // fill byte
      continue
    }
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC), carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { kind: 'jpeg', height: data.readUInt16BE(at + 5), width: data.readUInt16BE(at + 7) }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) at += 2 // no length
    else at += 2 + data.readUInt16BE(at + 2)
  }
  return { kind: 'jpeg', width: null, height: null }
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex')

/** A base64 JPEG/PNG sample → its hash, or why it cannot be used. */
export function sampleHash(sample: unknown): string | { error: string } {
  if (typeof sample !== 'string' || sample.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(sample)) return { error: 'the sample is not strict base64' }
  const data = Buffer.from(sample, 'base64')
  return imageInfo(data).kind ? sha256(data) : { error: 'the sample is not a JPEG or PNG image' }
}

const TEMPLATE_PREFIX = 'standin-template:'

/** templatedata as /biometrics returns it: base64 of the prefix and the hashes. */
export function encodeTemplate(hashes: string[]): string {
  return Buffer.from(TEMPLATE_PREFIX + hashes.join(',')).toString('base64')
}

export function decodeTemplate(template: unknown): string[] | { error: string } {
  const text = typeof template === 'string' ? Buffer.from(template, 'base64').toString('latin1') : ''
  const hashes = text.startsWith(TEMPLATE_PREFIX) ? text.slice(TEMPLATE_PREFIX.length).split(',') : []
  return hashes.length && hashes.every((h) => /^[0-9a-f]{64}$/.test(h)) ? hashes : { error: 'the template is not one this BioEngine made' }
}

/** A sample or a template (samples win when both are given) → hashes. */
export function probeHashes(input: { sample?: unknown; samples?: unknown; template?: unknown }): string[] | { error: string } {
  const samples = input.samples !== undefined ? input.samples : input.sample !== undefined ? [input.sample] : undefined
  if (samples === undefined) return input.template !== undefined ? decodeTemplate(input.template) : { error: 'neither a sample nor a template was given' }
  if (!Array.isArray(samples) || samples.length === 0) return { error: 'samples must be a non-empty array of base64 images' }
  const hashes: string[] = []
  for (const sample of samples) {
    const hash = sampleHash(sample)
    if (typeof hash !== 'string') return hash
    hashes.push(hash)
  }
  return hashes
}

/** Identical images → 97% of the scale's top, anything else → 10%. */
export function score(a: string[], b: string[], top: number): number {
  return Math.round((a.some((h) => b.includes(h)) ? 0.97 : 0.1) * top * 1000) / 1000
}
