import { describe, expect, it } from 'vitest'
import { LOOK_KEPT_MS, siteLook } from '../../electron/services/branding/site-look'
import type { KioskDesk } from '../../electron/services/front-desk/desk'
import type { Look } from '../../electron/shared/frontdesk-api'
import { defaultSettings, type KioskSettings } from '../../electron/shared/settings'

const look = (organisationName: string): Look => ({ organisationName, welcomeLine: '', accentColour: '#0b5cad', visitorRetentionDays: null, logo: null })

/** A site's desk that counts how often its look is asked for, and answers what the site holds now. */
function siteDesk(held: { look: Look; asked: number; answer?: Promise<void> }): KioskDesk {
  return {
    id: 'site:1',
    onSite: true,
    async look() {
      held.asked++
      const answer = held.look
      await held.answer
      return answer
    },
  } as unknown as KioskDesk
}

describe("the site's look, as a kiosk keeps it", () => {
  const onSite = async (): Promise<KioskSettings> => ({ ...defaultSettings, mode: 'site', personServerUrl: 'https://site.example', bioEngineUrl: 'https://site.example/bioengine', kioskName: 'Lobby' }) as KioskSettings

  it('asks the site once, not on every poll, until the site says the look changed', async () => {
    const held = { look: look('Acme'), asked: 0 }
    const site = siteLook({ settings: onSite, desk: async () => siteDesk(held), log: () => {} })
    for (let poll = 0; poll < 5; poll++) expect((await site.current())?.organisationName).toBe('Acme')
    expect(held.asked).toBe(1)

    held.look = look('Acme Ltd')
    site.changed()
    expect((await site.current())?.organisationName).toBe('Acme Ltd')
    expect(held.asked).toBe(2)
  })

  it('asks again after a while even without word of a change', async () => {
    let clock = 0
    const held = { look: look('Acme'), asked: 0 }
    const site = siteLook({ settings: onSite, desk: async () => siteDesk(held), log: () => {}, now: () => clock })
    await site.current()
    clock += LOOK_KEPT_MS + 1
    held.look = look('Acme Ltd')
    expect((await site.current())?.organisationName).toBe('Acme Ltd')
  })

  it('does not keep an answer that may predate a change heard while the site was being asked', async () => {
    let release!: () => void
    const held = { look: look('Acme'), asked: 0, answer: new Promise<void>((resolve) => (release = resolve)) }
    const site = siteLook({ settings: onSite, desk: async () => siteDesk(held), log: () => {} })
    const reading = site.current()
    await new Promise((resolve) => setTimeout(resolve, 0))
    held.look = look('Acme Ltd')
    site.changed()
    release()
    expect((await reading)?.organisationName).toBe('Acme')
    held.answer = Promise.resolve()
    expect((await site.current())?.organisationName).toBe('Acme Ltd')
  })
})
