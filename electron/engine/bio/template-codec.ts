import { endianness } from 'node:os'

/**
 * The template binary: versioned, self-describing, so a template made by POST /biometrics can be
 * enrolled, identified and verified later, and one made by another model is refused.
 *
 *   "BKT" | format u8 | modelVersion u16 | dimensions u16 | nameLength u8 | plugin name (UTF-8)
 *   | quality f32 | vector f32 × dimensions            (all little-endian)
 */

const MAGIC = [0x42, 0x4b, 0x54] // "BKT"
const FORMAT = 1
const LITTLE_ENDIAN = endianness() === 'LE'

export interface Template {
  plugin: string
  modelVersion: number
  quality: number
  vector: Float32Array
}

export class TemplateFormatError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TemplateFormatError'
  }
}

export function encodeTemplate(template: Template): Buffer {
  const name = Buffer.from(template.plugin, 'utf8')
  const dims = template.vector.length
  const header = 3 + 1 + 2 + 2 + 1 + name.length + 4
  const out = Buffer.alloc(header + dims * 4)
  out.set(MAGIC, 0)
  out.writeUInt8(FORMAT, 3)
  out.writeUInt16LE(template.modelVersion, 4)
  out.writeUInt16LE(dims, 6)
  out.writeUInt8(name.length, 8)
  name.copy(out, 9)
  out.writeFloatLE(template.quality, 9 + name.length)
  if (LITTLE_ENDIAN) out.set(new Uint8Array(template.vector.buffer, template.vector.byteOffset, dims * 4), header)
  else for (let i = 0; i < dims; i++) out.writeFloatLE(template.vector[i]!, header + i * 4)
  return out
}

export function decodeTemplate(bytes: Buffer): Template {
  if (bytes.length < 13 || !MAGIC.every((b, i) => bytes[i] === b)) throw new TemplateFormatError('This is not a BioEngine template.')
  if (bytes.readUInt8(3) !== FORMAT) throw new TemplateFormatError(`Template format ${bytes.readUInt8(3)} is not supported.`)
  const modelVersion = bytes.readUInt16LE(4)
  const dims = bytes.readUInt16LE(6)
  const nameLength = bytes.readUInt8(8)
  const header = 9 + nameLength + 4
  if (bytes.length !== header + dims * 4) throw new TemplateFormatError('The template is truncated or has trailing bytes.')
  const plugin = bytes.toString('utf8', 9, 9 + nameLength)
  const quality = bytes.readFloatLE(9 + nameLength)
  const vector = new Float32Array(dims)
  // Little-endian hosts (all the kiosk runs on) copy the bytes as they are: a 100k-template cache
  // rebuild reads 100M floats, and one readFloatLE call per float made decoding ~5x slower.
  if (LITTLE_ENDIAN) new Uint8Array(vector.buffer).set(bytes.subarray(header, header + dims * 4))
  else for (let i = 0; i < dims; i++) vector[i] = bytes.readFloatLE(header + i * 4)
  // Every template is checked here, imported or stored: a NaN would answer `quality: null`, and a
  // vector without direction (all zeros) cannot be normalised, so it would score 0 against anyone.
  if (!(quality >= 0 && quality <= 1)) throw new TemplateFormatError(`The template's quality ${quality} is not between 0 and 1.`)
  let sum = 0
  for (let i = 0; i < dims; i++) {
    if (!Number.isFinite(vector[i]!)) throw new TemplateFormatError('The template holds values that are not numbers.')
    sum += vector[i]! * vector[i]!
  }
  if (!(sum > 0)) throw new TemplateFormatError('The template vector is all zeros.')
  return { plugin, modelVersion, quality, vector }
}

/** Scales a vector to unit length in place (a zero vector stays zero). */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!
  const norm = Math.sqrt(sum)
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! / norm
  return vector
}

/** Cosine similarity of two unit vectors. */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!
  return sum
}

/** A stored template's normalised vector, or null when it no longer passes validation (stored before it was checked). */
export function storedVector(data: Buffer): Float32Array | null {
  try {
    return normalize(decodeTemplate(data).vector)
  } catch (error) {
    if (error instanceof TemplateFormatError) return null
    throw error
  }
}
