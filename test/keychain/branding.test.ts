import { statSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { KioskEvent } from '../../electron/shared/events'
import { remoteKiosk, type RemoteKiosk } from '../support/remote-kiosk'

// The organisation's look through the kiosk services as they are composed: a visitor reads it, an
// administrator changes it (audited), and every open screen hears of the change.
describe('the organisation’s branding through the services', () => {
  let k: RemoteKiosk
  const visitorEvents: KioskEvent[] = []
  const visitor = (method: string, input: unknown = {}) => k.services.dispatch(method, input, 'test:visitor-screen')
  const logo = async () => (await sharp({ create: { width: 300, height: 100, channels: 4, background: '#1e5a2b' } }).png().toBuffer()).toString('base64')

  beforeAll(async () => {
    k = await remoteKiosk()
    k.services.onEvent('test:visitor-screen', (event) => visitorEvents.push(event))
  })
  afterAll(async () => {
    await k?.close()
  })

  it('gives a visitor today’s look by default', async () => {
    expect(await visitor('getBranding')).toEqual({ ok: true, value: { organisationName: 'Identity Kiosk', welcomeLine: '', accentColour: '#0b5cad', logo: null } })
  })

  it('lets only an administrator set the logo; a visitor is refused', async () => {
    expect(await visitor('setLogo', { image: await logo() })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
    const branding = await k.call('setLogo', { image: await logo() })
    expect(branding.logo).toMatch(/^data:image\/png;base64,/)
    const stored = await sharp(Buffer.from(branding.logo.split(',')[1], 'base64')).metadata()
    expect(stored).toMatchObject({ format: 'png', width: 300, height: 100 })
    const file = join(k.dataDir, 'branding', 'logo.png')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(statSync(join(k.dataDir, 'branding')).mode & 0o777).toBe(0o700)
    expect((await visitor('getBranding')) as unknown).toMatchObject({ ok: true, value: { logo: branding.logo } })
    await expect.poll(() => visitorEvents.filter((e) => e.type === 'branding').at(-1)).toMatchObject({ type: 'branding', branding: { logo: branding.logo } })
  })

  it('pushes name, welcome line and accent to open screens when the settings change', async () => {
    await k.call('saveSettings', { organisationName: 'City Library', welcomeLine: 'Borrow, return, ask.', accentColour: '#1E5A2B' })
    await expect.poll(() => visitorEvents.filter((e) => e.type === 'branding').at(-1)).toMatchObject({
      branding: { organisationName: 'City Library', welcomeLine: 'Borrow, return, ask.', accentColour: '#1e5a2b' },
    })
    // A change to anything else is not news to the screens.
    const before = visitorEvents.length
    await k.call('saveSettings', { idleTimeoutSeconds: 120 })
    expect(visitorEvents.slice(before).filter((e) => e.type === 'branding')).toEqual([])
  })

  it('refuses bad input with a clear error, never an internal one, and keeps the logo it had', async () => {
    const kept = (await k.call('getBranding')).logo
    expect(await k.failure('setLogo', { image: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64') })).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/the SVG is not safe to use: it has a <script> element/),
    })
    expect(await k.failure('setLogo', { image: 'not base64!' })).toMatchObject({ code: 'INVALID_INPUT' })
    expect(await k.failure('setLogo', { image: Buffer.alloc(300 * 1024).toString('base64') })).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('at most 256 KB') })
    expect(await k.failure('setLogo', {})).toMatchObject({ code: 'INVALID_INPUT' })
    expect(await k.failure('saveSettings', { accentColour: '#ffcc00' })).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('WCAG AA needs 4.5:1') })
    expect((await k.call('getBranding')).logo).toBe(kept)
  })

  it('removes the logo, and audits each change as a settings change', async () => {
    expect((await k.call('setLogo', { image: null })).logo).toBeNull()
    expect((await visitor('getBranding')) as unknown).toMatchObject({ ok: true, value: { logo: null } })
    const entries = (await k.call('getAuditLog', { actions: ['settings-change'], limit: 100 })).entries
    const details = entries.filter((e: any) => e.outcome !== 'started').map((e: any) => [e.outcome, e.detail])
    expect(details).toEqual(
      expect.arrayContaining([
        ['ok', 'logo removed'],
        ['ok', 'logo set: PNG, 300×100 px'],
        ['refused', 'INVALID_INPUT'],
        ['ok', 'accentColour, organisationName, welcomeLine'],
      ]),
    )
    expect(entries.every((e: any) => e.role === 'admin')).toBe(true)
  })
})
