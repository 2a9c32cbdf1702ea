import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Encrypts biometric templates at rest with AES-256-GCM: iv (12) | tag (16) | ciphertext. */
export interface Sealer {
  seal(plain: Uint8Array): Buffer
  open(sealed: Uint8Array): Buffer
  /** The key, for this process's own cache-load threads to open templates with (bio/scan-pool.ts); never logged or sent out. */
  readonly key: Buffer
}

export function createSealer(key: Buffer): Sealer {
  if (key.length !== 32) throw new Error('The template key must be 32 bytes.')
  return {
    key,
    seal(plain) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(plain), cipher.final()])
      return Buffer.concat([iv, cipher.getAuthTag(), body])
    },
    open(sealed) {
      const data = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength)
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12))
      decipher.setAuthTag(data.subarray(12, 28))
      const plain = decipher.update(data.subarray(28))
      decipher.final() // checks the tag; GCM leaves nothing more to add
      return plain
    },
  }
}

/**
 * The template key: ENGINE_TEMPLATE_KEY (base64, 32 bytes) when the kiosk passes one from the OS
 * keychain, else a key file in the data folder readable only by this user (a standalone engine).
 */
export function loadTemplateKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  if (env.ENGINE_TEMPLATE_KEY) {
    const key = Buffer.from(env.ENGINE_TEMPLATE_KEY, 'base64')
    if (key.length !== 32) throw new Error('ENGINE_TEMPLATE_KEY must be 32 bytes, base64-encoded.')
    return key
  }
  const file = join(dataDir, 'template.key')
  if (!existsSync(file)) writeFileSync(file, randomBytes(32), { mode: 0o600, flag: 'wx' })
  chmodSync(file, 0o600)
  return readFileSync(file)
}
