import { resolve } from 'node:path'
import keytar from 'keytar'
import { KioskError } from '../../shared/errors'
import { defaultDataDir } from '../data-dir'

/** The keychain service name the kiosk on the per-user default data folder stores its secrets under. */
export const KEYCHAIN_SERVICE = 'identity-kiosk'

/**
 * The keychain service of the kiosk whose data is in `dataDir`. The per-user default folder keeps the
 * plain name (the desktop app and the web host share it, as they share the folder); any other folder
 * gets its own, so a second kiosk on the same account (a staging copy, `--data`, a test host) never
 * reads, replaces or deletes this one's credentials and keys.
 */
export function keychainServiceFor(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const folder = resolve(dataDir)
  return folder === resolve(defaultDataDir({ ...env, KIOSK_DATA_DIR: undefined })) ? KEYCHAIN_SERVICE : `${KEYCHAIN_SERVICE} (${folder})`
}

/**
 * A non-secret entry the wrapper writes under the same service the first time it needs to know
 * whether the keychain is usable. Its value is fixed and public; it only ever proves "unlocked".
 */
export const KEYCHAIN_CANARY_ACCOUNT = 'keychain-canary'
const CANARY_VALUE = 'identity-kiosk keychain canary v1'

/** ready: reads and writes work; locked: the keyring must be unlocked first; unavailable: no usable Secret Service. */
export type KeychainState = 'ready' | 'locked' | 'unavailable'

export interface Keychain {
  /** Stores or replaces a secret. Throws KEYCHAIN_LOCKED or KEYCHAIN_UNAVAILABLE. */
  set(account: string, secret: string): Promise<void>
  /**
   * The secret, or null when none is stored. null is only returned once the keychain is known to be
   * unlocked: a locked keychain throws KEYCHAIN_LOCKED instead of looking empty.
   */
  get(account: string): Promise<string | null>
  /** True when something was deleted; false when nothing was stored. Throws KEYCHAIN_LOCKED when locked. */
  delete(account: string): Promise<boolean>
  /** Whether the keychain can be used now (may write the canary entry; never throws for lock/availability). */
  state(): Promise<KeychainState>
}

export interface KeychainOptions {
  /**
   * How long one call may wait (in the queue and in libsecret) before it fails with
   * KEYCHAIN_UNAVAILABLE. A desktop may show an unlock prompt meanwhile, so leave the operator time.
   */
  timeoutMs?: number
}

const DEFAULT_TIMEOUT_MS = 60_000

/**
 * A small store over the OS keychain (keytar). Failures become KioskErrors with a plain reason;
 * the secret never appears in a message.
 *
 * Locked keyrings: with libsecret, a locked collection makes getPassword return null and
 * deletePassword return false, exactly as if nothing were stored (keytar cannot tell), while
 * setPassword fails ("Cannot create an item in a locked collection"). So a null or false answer is
 * only trusted after confirming the keychain is unlocked:
 *   1. read the canary entry: present means unlocked, so the null was a real "not stored";
 *   2. missing, and this wrapper saw it earlier: it vanished because the keyring was locked;
 *   3. missing and never seen: write it. A locked keyring refuses the write (KEYCHAIN_LOCKED);
 *      success proves the keychain unlocked (a desktop may have just prompted and unlocked it),
 *      so the original question is asked once more.
 * keytar's findCredentials crashes on a locked keyring, so this wrapper never calls it.
 *
 * One keytar call at a time, process-wide: with three or more lookups in flight on a locked
 * keyring, libsecret 0.20 loses a reply (GLib-CRITICAL "g_task_return_error: assertion 'error !=
 * NULL' failed") and those calls never return, each holding a libuv worker thread for good.
 */
export function createKeychain(service = KEYCHAIN_SERVICE, options: KeychainOptions = {}): Keychain {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const guard = <T>(call: () => Promise<T>) => serialized(call, timeoutMs)
  /** The canary was read or written by this wrapper, so its absence means "locked". */
  let canarySeen = false

  /** Resolves when the keychain is unlocked and writable; throws KEYCHAIN_LOCKED / _UNAVAILABLE otherwise. */
  async function confirmUnlocked(): Promise<void> {
    const canary = await guard(() => keytar.getPassword(service, KEYCHAIN_CANARY_ACCOUNT))
    if (canary === CANARY_VALUE) {
      canarySeen = true
      return
    }
    if (canarySeen) {
      // Seen before, unreadable now: the keyring was locked meanwhile. Forget it, so that the next
      // check writes the canary again (which also repairs a canary someone deleted by hand).
      canarySeen = false
      throw lockedError()
    }
    await guard(() => keytar.setPassword(service, KEYCHAIN_CANARY_ACCOUNT, CANARY_VALUE))
    canarySeen = true
  }

  return {
    async set(account, secret) {
      await guard(() => keytar.setPassword(service, account, secret))
    },
    async get(account) {
      const value = await guard(() => keytar.getPassword(service, account))
      if (value !== null) return value
      await confirmUnlocked()
      // Unlocked now; it may not have been a moment ago, so ask again before answering "not stored".
      return guard(() => keytar.getPassword(service, account))
    },
    async delete(account) {
      if (await guard(() => keytar.deletePassword(service, account))) return true
      await confirmUnlocked()
      return guard(() => keytar.deletePassword(service, account))
    },
    async state() {
      try {
        await confirmUnlocked()
        return 'ready'
      } catch (error) {
        if (error instanceof KioskError && error.code === 'KEYCHAIN_LOCKED') return 'locked'
        if (error instanceof KioskError && error.code === 'KEYCHAIN_UNAVAILABLE') return 'unavailable'
        throw error
      }
    },
  }
}

/** The end of the process-wide queue of keytar calls; it never rejects. */
let queueTail: Promise<void> = Promise.resolve()

/**
 * Runs one keytar call after every earlier one has finished, mapping its failure to a KioskError.
 * Past the deadline the caller gets KEYCHAIN_UNAVAILABLE; a call still waiting its turn then never
 * starts, and one already running keeps the queue until libsecret returns, so calls never overlap.
 */
function serialized<T>(call: () => Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let expired = false
    const timer = setTimeout(() => {
      expired = true
      reject(
        new KioskError(
          'KEYCHAIN_UNAVAILABLE',
          `The OS keychain did not answer within ${Math.round(timeoutMs / 1000)} s; if it asks for a password, unlock the login keyring, otherwise restart the kiosk, and try again.`,
        ),
      )
    }, timeoutMs)
    timer.unref()
    queueTail = queueTail.then(async () => {
      if (expired) return
      try {
        resolve(await call())
      } catch (error) {
        reject(keychainError(error))
      } finally {
        clearTimeout(timer)
      }
    })
  })
}

function lockedError(detail?: string): KioskError {
  const why = detail ? ` (${detail})` : ''
  return new KioskError('KEYCHAIN_LOCKED', `The OS keychain is locked; unlock the login keyring and try again${why}.`)
}

/**
 * Maps libsecret/D-Bus failures to the conditions an operator can act on. The detail is libsecret's
 * own message (about the keyring, never about the secret), cleaned and shortened.
 */
export function keychainError(error: unknown): KioskError {
  if (error instanceof KioskError) return error
  const raw = error instanceof Error ? error.message : String(error)
  // eslint-disable-next-line no-control-regex
  const detail = raw.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, 200)
  if (/lock|prompt|dismissed|cancel/i.test(detail)) return lockedError(detail)
  if (/object does not exist at path/i.test(detail)) {
    return new KioskError(
      'KEYCHAIN_UNAVAILABLE',
      `The OS keychain has no default keyring to store secrets in; create or unlock the login keyring (for example in "Passwords and Keys") and try again (${detail}).`,
    )
  }
  return new KioskError(
    'KEYCHAIN_UNAVAILABLE',
    `The OS keychain (Secret Service) is not available; start a keyring such as gnome-keyring and try again (${detail}).`,
  )
}
