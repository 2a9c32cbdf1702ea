import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

/**
 * AES-256-GCM for what the outbox keeps at rest (samples, userId). Layout: version (1) | iv (12) |
 * tag (16) | ciphertext. Every seal draws a fresh random IV: a 96-bit IV repeated under one key
 * would break GCM, and random IVs stay safe far beyond the number of captures a kiosk makes.
 *
 * `aad` binds each blob to its row and field (e.g. "item-id:samples"), so a ciphertext copied
 * onto another row, or from the userId column into the samples column, fails its tag check
 * instead of being delivered under the wrong visitor.
 */
export interface Sealer {
  seal(plain: Uint8Array, aad: string): Buffer
  /** Throws when the key is wrong or the blob was altered (the GCM tag does not verify). */
  open(sealed: Uint8Array, aad: string): Buffer
}

const VERSION = 1
const IV_BYTES = 12
const TAG_BYTES = 16
const HEADER = 1 + IV_BYTES + TAG_BYTES

export function createSealer(key: Buffer): Sealer {
  if (!Buffer.isBuffer(key) || key.length !== 32) throw new Error('The outbox key must be 32 bytes (AES-256).')
  // Our own copy: the caller may wipe or reuse its buffer after opening the outbox.
  const k = Buffer.from(key)
  return {
    seal(plain, aad) {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', k, iv, { authTagLength: TAG_BYTES })
      cipher.setAAD(Buffer.from(aad, 'utf8'))
      const body = Buffer.concat([cipher.update(plain), cipher.final()])
      return Buffer.concat([Buffer.of(VERSION), iv, cipher.getAuthTag(), body])
    },
    open(sealed, aad) {
      const data = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength)
      if (data.length < HEADER || data[0] !== VERSION) throw new Error('not an outbox ciphertext')
      const decipher = createDecipheriv('aes-256-gcm', k, data.subarray(1, 1 + IV_BYTES), { authTagLength: TAG_BYTES })
      decipher.setAAD(Buffer.from(aad, 'utf8'))
      decipher.setAuthTag(data.subarray(1 + IV_BYTES, HEADER))
      return Buffer.concat([decipher.update(data.subarray(HEADER)), decipher.final()])
    },
  }
}
