import { createHash, randomBytes, randomInt, scrypt, type ScryptOptions } from 'node:crypto'
import { PAIRING_ALPHABET, PAIRING_CODE_LENGTH } from '../../shared/frontdesk-api'

/**
 * A staff PIN's hash: scrypt at N=2^15, r=8 (about 32 MB and a tenth of a second per try, in
 * libuv's thread pool). Each account keeps the parameters it was hashed with, so raising these
 * later leaves old PINs working.
 */
export const PIN_PARAMS = { N: 2 ** 15, r: 8, p: 1, keylen: 32 }
export type PinParams = typeof PIN_PARAMS

/**
 * An account's stored parameters, read back: only what this code could have written (N a power of
 * two from 2^14 to 2^17, r 8, p 1, a 32-byte key), so an account brought from elsewhere cannot make
 * each sign-in allocate gigabytes. Null for anything else.
 */
export function readPinParams(text: string): PinParams | null {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  if (typeof value !== 'object' || value === null) return null
  const { N, r, p, keylen, ...rest } = value as Record<string, unknown>
  const known = Object.keys(rest).length === 0 && r === 8 && p === 1 && keylen === 32
  return known && typeof N === 'number' && Number.isInteger(Math.log2(N)) && N >= 2 ** 14 && N <= 2 ** 17 ? { N, r, p, keylen } : null
}

export function newSalt(): Buffer {
  return randomBytes(16)
}

/** NFKC first, so a PIN typed on another keyboard (full-width digits) is the same PIN. */
export function derivePin(secret: string, salt: Buffer, params: PinParams): Promise<Buffer> {
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r }
  return new Promise((resolve, reject) => scrypt(secret.normalize('NFKC'), salt, params.keylen, options, (error, key) => (error ? reject(error) : resolve(key))))
}

/** What is stored of a session token or a pairing code: both are random, so SHA-256 is enough and a database leak gives no usable one. */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/** A staff session's token: 32 random bytes, base64url. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url')
}

/** A pairing code: PAIRING_CODE_LENGTH letters of PAIRING_ALPHABET, each drawn without bias. */
export function newPairingCode(): string {
  let code = ''
  for (let i = 0; i < PAIRING_CODE_LENGTH; i++) code += PAIRING_ALPHABET[randomInt(PAIRING_ALPHABET.length)]
  return code
}
