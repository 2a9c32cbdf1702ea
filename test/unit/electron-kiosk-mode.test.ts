import { describe, expect, it, vi } from 'vitest'
import { isExitShortcut, readKioskConfig } from '../../electron/main/kiosk-mode'
import { PIN_ORIGIN } from '../../electron/main/origins'
import { createStaffPinPrompt, PIN_PAGE_CSP } from '../../electron/main/staff-pin'
import { KioskError } from '../../electron/shared/errors'

describe('kiosk mode configuration', () => {
  it('is on when KIOSK_MODE says so, and needs nothing else: leaving it is an administrator sign-in', () => {
    expect(readKioskConfig({})).toEqual({ kioskMode: false })
    expect(readKioskConfig({ KIOSK_MODE: '0' })).toEqual({ kioskMode: false })
    expect(readKioskConfig({ KIOSK_MODE: '1' })).toEqual({ kioskMode: true })
    expect(readKioskConfig({ KIOSK_MODE: ' True ' })).toEqual({ kioskMode: true })
    // A PIN left in the environment from before changes nothing and is not read.
    expect(readKioskConfig({ KIOSK_MODE: '1', KIOSK_STAFF_PIN: '1234' })).toEqual({ kioskMode: true })
  })

  it('opens the administrator prompt on Ctrl+Shift+Q (Cmd+Shift+Q on macOS) only', () => {
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

describe('leave-kiosk prompt (app://staff-pin)', () => {
  const ADMIN = { name: 'Kiosk Admin', secret: 'right-secret' }

  /** Stands in for the services' verifyAdmin: one administrator, a pause after two failures. */
  function setup() {
    const onUnlock = vi.fn()
    const onCancel = vi.fn()
    let failures = 0
    const verify = vi.fn(async (name: string, secret: string) => {
      if (failures >= 2) throw new KioskError('TOO_MANY_ATTEMPTS', 'Too many failed sign-ins. Try again in 5 seconds.')
      if (name === ADMIN.name && secret === ADMIN.secret) return
      failures += 1
      throw new KioskError('UNAUTHORIZED', 'That name and PIN or password do not match an active staff account.')
    })
    const prompt = createStaffPinPrompt({ verify, onUnlock, onCancel })
    return { prompt, verify, onUnlock, onCancel }
  }
  const post = (path: string, body: unknown, origin: string | null = PIN_ORIGIN) =>
    new Request(`app://staff-pin${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) }, body: JSON.stringify(body) })

  it('serves nothing until a prompt is open, then its page (name and PIN or password) under a strict CSP', async () => {
    const { prompt } = setup()
    expect((await prompt.handle(new Request('app://staff-pin/'))).status).toBe(404)
    const url = prompt.begin()
    expect(url).toMatch(/^app:\/\/staff-pin\/\?s=[\w-]{43}$/)
    const page = await prompt.handle(new Request(url))
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toBe(PIN_PAGE_CSP)
    const html = await page.text()
    expect(html).toContain('<script src="pin.js"></script>')
    expect(html).toContain('<label for="name">Administrator name</label>')
    expect(html).toContain('<input id="secret" name="secret" type="password"')
    expect((await prompt.handle(new Request('app://staff-pin/pin.js'))).headers.get('content-type')).toContain('text/javascript')
    expect((await prompt.handle(new Request('app://staff-pin/other'))).status).toBe(404)
    expect((await prompt.handle(new Request('app://kiosk/'))).status).toBe(404)
  })

  it("unlocks with an administrator's sign-in and the session token of the open prompt only", async () => {
    const { prompt, verify, onUnlock } = setup()
    const session = new URL(prompt.begin()).searchParams.get('s')!
    expect((await prompt.handle(post('/unlock', { session: 'forged', ...ADMIN }))).status).toBe(403)
    expect((await prompt.handle(post('/unlock', { session, ...ADMIN }, 'app://kiosk'))).status).toBe(403)
    expect((await prompt.handle(new Request('app://staff-pin/unlock', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ session, ...ADMIN }) }))).status).toBe(403)
    expect((await prompt.handle(post('/unlock', { session, ...ADMIN, pad: 'x'.repeat(2000) }))).status).toBe(403)
    // None of those reached the accounts.
    expect(verify).not.toHaveBeenCalled()
    const wrong = await prompt.handle(post('/unlock', { session, name: ADMIN.name, secret: 'wrong-secret' }))
    expect(await wrong.json()).toEqual({ ok: false, message: 'That name and PIN or password do not match an active staff account.' })
    const right = await prompt.handle(post('/unlock', { session, ...ADMIN }))
    expect(await right.json()).toEqual({ ok: true })
    expect(verify).toHaveBeenLastCalledWith(ADMIN.name, ADMIN.secret)
    await Promise.resolve()
    expect(onUnlock).toHaveBeenCalledTimes(1)
    // The token is single-use.
    expect((await prompt.handle(post('/unlock', { session, ...ADMIN }))).status).toBe(404)
    expect(prompt.active).toBe(false)
  })

  it('asks for both fields before checking anything, and passes the trimmed name on', async () => {
    const { prompt, verify, onUnlock } = setup()
    const session = new URL(prompt.begin()).searchParams.get('s')!
    for (const body of [{ pin: '2468' }, { name: ADMIN.name }, { name: ADMIN.name, secret: '' }, { name: 'x', secret: ADMIN.secret }, { name: ADMIN.name, secret: 123456 }]) {
      expect(await (await prompt.handle(post('/unlock', { session, ...body }))).json(), JSON.stringify(body)).toEqual({ ok: false, message: "Enter an administrator's name and PIN or password." })
    }
    expect(verify).not.toHaveBeenCalled()
    expect(await (await prompt.handle(post('/unlock', { session, name: `  ${ADMIN.name} `, secret: ADMIN.secret }))).json()).toEqual({ ok: true })
    expect(verify).toHaveBeenCalledWith(ADMIN.name, ADMIN.secret)
    await Promise.resolve()
    expect(onUnlock).toHaveBeenCalledTimes(1)
  })

  it("shows the services' refusal: too many attempts says when to retry; other failures stay generic", async () => {
    const { prompt, onUnlock } = setup()
    const session = new URL(prompt.begin()).searchParams.get('s')!
    await prompt.handle(post('/unlock', { session, name: ADMIN.name, secret: 'wrong-1' }))
    await prompt.handle(post('/unlock', { session, name: ADMIN.name, secret: 'wrong-2' }))
    expect(await (await prompt.handle(post('/unlock', { session, ...ADMIN }))).json()).toEqual({ ok: false, message: 'Too many failed sign-ins. Try again in 5 seconds.' })
    expect(onUnlock).not.toHaveBeenCalled()

    const broken = createStaffPinPrompt({ verify: async () => Promise.reject(new Error('SQLITE_CANTOPEN /secret/path')), onUnlock, onCancel: vi.fn() })
    const token = new URL(broken.begin()).searchParams.get('s')!
    expect(await (await broken.handle(post('/unlock', { session: token, ...ADMIN }))).json()).toEqual({ ok: false, message: 'The sign-in could not be checked. Try again.' })
    expect(onUnlock).not.toHaveBeenCalled()
  })

  it('checks one attempt at a time, and a prompt closed during the check does not unlock', async () => {
    let release = () => {}
    const onUnlock = vi.fn()
    const prompt = createStaffPinPrompt({ verify: () => new Promise<void>((resolve) => (release = resolve)), onUnlock, onCancel: vi.fn() })
    const session = new URL(prompt.begin()).searchParams.get('s')!
    const first = prompt.handle(post('/unlock', { session, ...ADMIN }))
    await new Promise((resolve) => setTimeout(resolve, 0))
    const second = await prompt.handle(post('/unlock', { session, ...ADMIN }))
    expect(second.status).toBe(429)
    prompt.end()
    release()
    expect((await first).status).toBe(403)
    await Promise.resolve()
    expect(onUnlock).not.toHaveBeenCalled()
  })

  it('cancels, and a closed prompt (end) invalidates its token', async () => {
    const { prompt, onCancel } = setup()
    let session = new URL(prompt.begin()).searchParams.get('s')!
    expect(await (await prompt.handle(post('/cancel', { session }))).json()).toEqual({ ok: true })
    expect(onCancel).toHaveBeenCalledTimes(1)
    session = new URL(prompt.begin()).searchParams.get('s')!
    prompt.end()
    expect((await prompt.handle(post('/unlock', { session, ...ADMIN }))).status).toBe(404)
  })
})
