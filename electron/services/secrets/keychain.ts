import keytar from 'keytar'
import { KioskError } from '../../shared/errors'

/** The keychain service name every kiosk secret is stored under. */
export const KEYCHAIN_SERVICE = 'identity-kiosk'

export interface Keychain {
  set(account: string, secret: string): Promise<void>
  /** The secret, or null when none is stored. */
  get(account: string): Promise<string | null>
  /** True when something was deleted. */
  delete(account: string): Promise<boolean>
}

/**
 * A small store over the OS keychain (keytar). Failures become KioskErrors with a plain reason;
 * the secret never appears in a message. keytar's findCredentials crashes on a locked keyring, so
 * this wrapper never calls it.
 */
export function createKeychain(service = KEYCHAIN_SERVICE): Keychain {
  return {
    async set(account, secret) {
      await guard(() => keytar.setPassword(service, account, secret))
    },
    async get(account) {
      return guard(() => keytar.getPassword(service, account))
    },
    async delete(account) {
      return guard(() => keytar.deletePassword(service, account))
    },
  }
}

async function guard<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    throw keychainError(error)
  }
}

/** Maps libsecret/D-Bus failures to the two conditions an operator can act on. */
export function keychainError(error: unknown): KioskError {
  const detail = error instanceof Error ? error.message : String(error)
  if (/lock|prompt|dismissed|cancel/i.test(detail)) {
    return new KioskError('KEYCHAIN_LOCKED', `The OS keychain is locked; unlock it and try again (${detail}).`)
  }
  return new KioskError(
    'KEYCHAIN_UNAVAILABLE',
    `The OS keychain (Secret Service) is not available; start a keyring such as gnome-keyring and try again (${detail}).`,
  )
}
