import { describe, expect, it, vi } from 'vitest'
import { isExitShortcut, PinGate, readKioskConfig } from '../../electron/main/kiosk-mode'
import { PIN_ORIGIN } from '../../electron/main/origins'
import { createStaffPinPrompt, PIN_PAGE_CSP } from '../../electron/main/staff-pin'

describe('kiosk mode configuration', () => {
  it('is off unless KIOSK_MODE says so', () => {
    expect(readKioskConfig({})).toEqual({ kioskMode: false, staffPin: null })
    expect(readKioskConfig({ KIOSK_MODE: '0', KIOSK_STAFF_PIN: '1234' })).toEqual({ kioskMode: false, staffPin: null })
    expect(readKioskConfig({ KIOSK_MODE: '1', KIOSK_STAFF_PIN: '1234' })).toEqual({ kioskMode: true, staffPin: '1234' })
    expect(readKioskConfig({ KIOSK_MODE: 'true', KIOSK_STAFF_PIN: '123456789012' })).toEqual({ kioskMode: true, staffPin: '123456789012' })
  })

  it('refuses kiosk mode without a usable PIN: there would be no way out', () => {
    for (const pin of [undefined, '', '123', '1234567890123', '12a4', ' 1234', '1234\n']) {
      const config = readKioskConfig({ KIOSK_MODE: '1', KIOSK_STAFF_PIN: pin })
      expect(config.kioskMode, String(pin)).toBe(true)
      expect(config.staffPin, String(pin)).toBeNull()
      expect('problem' in config && config.problem).toMatch(/KIOSK_STAFF_PIN/)
    }
  })

  it('opens the PIN prompt on Ctrl+Shift+Q (Cmd+Shift+Q on macOS) only', () => {
    const key = (over: Partial<Parameters<typeof isExitShortcut>[0]>) => ({ type: 'keyDown', key: 'Q', control: true, meta: false, shift: true, alt: false, ...over })
    expect(isExitShortcut(key({}))).toBe(true)
    expect(isExitShortcut(key({ key: 'q' }))).toBe(true)
    expect(isExitShortcut(key({ control: false, meta: true }))).toBe(true)
    expect(isExitShortcut(key({ shift: false }))).toBe(false)
    expect(isExitShortcut(key({ alt: true }))).toBe(false)
    expect(isExitShortcut(key({ control: false }))).toBe(false)
    expect(isExitShortcut(key({ type: 'keyUp' }))).toBe(false)
    expect(isExitShortcut(key({ key: 'w' }))).toBe(false)
  })
})

describe('PinGate', () => {
  it('accepts the PIN, refuses others, and locks out with doubling pauses', () => {
    let now = 0
    const gate = new PinGate('2468', { maxAttempts: 3, lockoutMs: 10_000, now: () => now })
    expect(gate.verify('2468')).toEqual({ ok: true })
    expect(gate.verify('1111')).toMatchObject({ ok: false, reason: 'wrong', attemptsLeft: 2 })
    expect(gate.verify('abcd')).toMatchObject({ ok: false, reason: 'malformed' })
    expect(gate.verify(2468)).toMatchObject({ ok: false, reason: 'malformed' })
    expect(gate.verify('1111')).toMatchObject({ ok: false, reason: 'wrong', attemptsLeft: 1 })
    expect(gate.verify('1111')).toMatchObject({ ok: false, reason: 'locked', retryAfterSeconds: 10 })
    // While locked, even the right PIN is refused.
    expect(gate.verify('2468')).toMatchObject({ ok: false, reason: 'locked' })
    now = 10_001
    for (let i = 0; i < 3; i++) gate.verify('0000')
    expect(gate.verify('2468')).toMatchObject({ ok: false, reason: 'locked', retryAfterSeconds: 20 })
    now += 20_001
    expect(gate.verify('2468')).toEqual({ ok: true })
  })

  it('will not be built around a PIN that is not 4 to 12 digits', () => {
    expect(() => new PinGate('12')).toThrow()
  })
})

describe('staff PIN prompt (app://staff-pin)', () => {
  function setup() {
    const onUnlock = vi.fn()
    const onCancel = vi.fn()
    const prompt = createStaffPinPrompt({ gate: new PinGate('2468', { maxAttempts: 2 }), onUnlock, onCancel })
    return { prompt, onUnlock, onCancel }
  }
  const post = (path: string, body: unknown, origin: string | null = PIN_ORIGIN) =>
    new Request(`app://staff-pin${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) }, body: JSON.stringify(body) })

  it('serves nothing until a prompt is open, then its page under a strict CSP', async () => {
    const { prompt } = setup()
    expect((await prompt.handle(new Request('app://staff-pin/'))).status).toBe(404)
    const url = prompt.begin()
    expect(url).toMatch(/^app:\/\/staff-pin\/\?s=[\w-]{43}$/)
    const page = await prompt.handle(new Request(url))
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toBe(PIN_PAGE_CSP)
    expect(await page.text()).toContain('<script src="pin.js"></script>')
    expect((await prompt.handle(new Request('app://staff-pin/pin.js'))).headers.get('content-type')).toContain('text/javascript')
    expect((await prompt.handle(new Request('app://staff-pin/other'))).status).toBe(404)
    expect((await prompt.handle(new Request('app://kiosk/'))).status).toBe(404)
  })

  it('unlocks with the right PIN and the session token of the open prompt only', async () => {
    const { prompt, onUnlock } = setup()
    const session = new URL(prompt.begin()).searchParams.get('s')!
    expect((await prompt.handle(post('/unlock', { session: 'forged', pin: '2468' }))).status).toBe(403)
    expect((await prompt.handle(post('/unlock', { session, pin: '2468' }, 'app://kiosk'))).status).toBe(403)
    expect((await prompt.handle(new Request('app://staff-pin/unlock', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ session, pin: '2468' }) }))).status).toBe(403)
    expect((await prompt.handle(post('/unlock', { session, pin: '2468', pad: 'x'.repeat(2000) }))).status).toBe(403)
    const wrong = await prompt.handle(post('/unlock', { session, pin: '1357' }))
    expect(await wrong.json()).toMatchObject({ ok: false, message: expect.stringMatching(/Wrong PIN. 1 attempt left/) })
    const right = await prompt.handle(post('/unlock', { session, pin: '2468' }))
    expect(await right.json()).toEqual({ ok: true })
    await Promise.resolve()
    expect(onUnlock).toHaveBeenCalledTimes(1)
    // The token is single-use.
    expect((await prompt.handle(post('/unlock', { session, pin: '2468' }))).status).toBe(404)
    expect(prompt.active).toBe(false)
  })

  it('locks out after repeated wrong PINs and says when to retry', async () => {
    const { prompt, onUnlock } = setup()
    const session = new URL(prompt.begin()).searchParams.get('s')!
    await prompt.handle(post('/unlock', { session, pin: '0000' }))
    const locked = await (await prompt.handle(post('/unlock', { session, pin: '0000' }))).json()
    expect(locked).toMatchObject({ ok: false, message: expect.stringMatching(/Try again in 30 seconds/) })
    expect(await (await prompt.handle(post('/unlock', { session, pin: '2468' }))).json()).toMatchObject({ ok: false })
    expect(onUnlock).not.toHaveBeenCalled()
  })

  it('cancels, and a closed prompt (end) invalidates its token', async () => {
    const { prompt, onCancel } = setup()
    let session = new URL(prompt.begin()).searchParams.get('s')!
    expect(await (await prompt.handle(post('/cancel', { session }))).json()).toEqual({ ok: true })
    expect(onCancel).toHaveBeenCalledTimes(1)
    session = new URL(prompt.begin()).searchParams.get('s')!
    prompt.end()
    expect((await prompt.handle(post('/unlock', { session, pin: '2468' }))).status).toBe(404)
  })
})
