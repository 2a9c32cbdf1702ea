import { createHash, timingSafeEqual } from 'node:crypto'

/**
 * Kiosk mode and the staff PIN that leaves it. Plain Node (no 'electron' import), unit-tested.
 *
 * For now both come from the environment — KIOSK_MODE=1 and KIOSK_STAFF_PIN=<4–12 digits> — and not
 * from settings.json: the renderer can write settings (saveSettings), and it must never be able to
 * switch kiosk mode off or learn or change the PIN. See electron/main/README.md for the settings
 * fields proposed to replace this.
 */

export type KioskConfig = { kioskMode: false; staffPin: null } | { kioskMode: true; staffPin: string } | { kioskMode: true; staffPin: null; problem: string }

const PIN_PATTERN = /^\d{4,12}$/

export function readKioskConfig(env: Record<string, string | undefined>): KioskConfig {
  const mode = (env.KIOSK_MODE ?? '').trim().toLowerCase()
  if (!['1', 'true', 'yes', 'on'].includes(mode)) return { kioskMode: false, staffPin: null }
  const pin = env.KIOSK_STAFF_PIN ?? ''
  if (!PIN_PATTERN.test(pin)) {
    return { kioskMode: true, staffPin: null, problem: 'KIOSK_MODE is on but KIOSK_STAFF_PIN is not 4 to 12 digits: the kiosk would have no way out.' }
  }
  return { kioskMode: true, staffPin: pin }
}

export type PinVerdict = { ok: true } | { ok: false; reason: 'wrong' | 'locked' | 'malformed'; retryAfterSeconds: number; attemptsLeft: number }

export interface PinGateOptions {
  /** Wrong PINs allowed before a lockout. */
  maxAttempts?: number
  /** First lockout; each further lockout doubles it, up to maxLockoutMs. */
  lockoutMs?: number
  maxLockoutMs?: number
  now?: () => number
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest()

/**
 * Checks PIN attempts in constant time and locks out after repeated failures, so neither a person
 * at the screen nor a compromised page can brute-force the PIN.
 */
export class PinGate {
  private readonly expected: Buffer
  private readonly maxAttempts: number
  private readonly lockoutMs: number
  private readonly maxLockoutMs: number
  private readonly now: () => number
  private failures = 0
  private lockouts = 0
  private lockedUntil = 0

  constructor(pin: string, options: PinGateOptions = {}) {
    if (!PIN_PATTERN.test(pin)) throw new Error('the staff PIN must be 4 to 12 digits')
    this.expected = digest(pin)
    this.maxAttempts = options.maxAttempts ?? 5
    this.lockoutMs = options.lockoutMs ?? 30_000
    this.maxLockoutMs = options.maxLockoutMs ?? 15 * 60_000
    this.now = options.now ?? Date.now
  }

  verify(candidate: unknown): PinVerdict {
    const now = this.now()
    if (now < this.lockedUntil) return { ok: false, reason: 'locked', retryAfterSeconds: Math.ceil((this.lockedUntil - now) / 1000), attemptsLeft: 0 }
    if (typeof candidate !== 'string' || !PIN_PATTERN.test(candidate)) {
      return { ok: false, reason: 'malformed', retryAfterSeconds: 0, attemptsLeft: this.maxAttempts - this.failures }
    }
    if (timingSafeEqual(digest(candidate), this.expected)) {
      this.failures = 0
      this.lockouts = 0
      return { ok: true }
    }
    this.failures += 1
    if (this.failures >= this.maxAttempts) {
      const duration = Math.min(this.lockoutMs * 2 ** this.lockouts, this.maxLockoutMs)
      this.lockouts += 1
      this.failures = 0
      this.lockedUntil = now + duration
      return { ok: false, reason: 'locked', retryAfterSeconds: Math.ceil(duration / 1000), attemptsLeft: 0 }
    }
    return { ok: false, reason: 'wrong', retryAfterSeconds: 0, attemptsLeft: this.maxAttempts - this.failures }
  }
}

/** The shortcut that opens the staff PIN prompt: Ctrl+Shift+Q (Cmd+Shift+Q on macOS). */
export function isExitShortcut(input: { type: string; key: string; control: boolean; meta: boolean; shift: boolean; alt: boolean }): boolean {
  return input.type === 'keyDown' && input.key.toLowerCase() === 'q' && input.shift && !input.alt && (input.control || input.meta)
}
