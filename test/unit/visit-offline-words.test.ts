import { describe, expect, it } from 'vitest'
import type { VisitorCheckResult } from '../../electron/shared/visits'
import { languages, visitorCatalogues } from '../../renderer/src/i18n'
import { hostLine } from '../../renderer/src/screens/visits/host-line'
import { flatten, type Catalogue } from '../support/catalogues'

// A site's kiosk checks visitors in and out while its site is away: the visitor reads that it is kept
// here and reaches the front desk (and their host) when the kiosk is back, never that the host has been told.

type CheckedIn = Extract<VisitorCheckResult, { outcome: 'checked-in' }>
const checkedIn = (over: Partial<CheckedIn>): CheckedIn => ({
  outcome: 'checked-in',
  visitId: 'v1',
  greeting: 'Ana',
  hostName: 'Sam Host',
  checkedInAt: '2026-11-29T09:00:00.000Z',
  alreadyOnSite: false,
  hostNotified: false,
  ...over,
})

describe('the host line of a check-in', () => {
  it('says "told" only for a notice queued, and "told then" for a check-in kept offline', () => {
    expect(hostLine(checkedIn({ hostNotified: true }))).toBe('told')
    expect(hostLine(checkedIn({ hostNotified: false }))).toBeNull()
    expect(hostLine(checkedIn({ offline: true }))).toBe('later')
    // Kept offline, the host has not been told, whatever else the result says.
    expect(hostLine(checkedIn({ offline: true, hostNotified: true }))).toBe('later')
  })

  it('says nothing of a host without one, or to someone already on site', () => {
    expect(hostLine(checkedIn({ hostName: null, offline: true }))).toBeNull()
    expect(hostLine(checkedIn({ hostName: null, hostNotified: true }))).toBeNull()
    expect(hostLine(checkedIn({ offline: true, alreadyOnSite: true }))).toBeNull()
  })
})

describe('the offline check-in and check-out words', () => {
  const keys = ['visit.offlineCheckedIn', 'visit.offlineHostLater', 'visit.offlineCheckedOut']
  const english = flatten(visitorCatalogues.en as Catalogue)

  it('are in English, and promise nothing done yet', () => {
    for (const key of keys) expect(english.get(key), key).toBeTruthy()
    expect(english.get('visit.offlineHostLater')).toContain('{{host}}')
    for (const key of keys) expect(english.get(key), key).not.toMatch(/has been told|have been told|was told/i)
  })

  it.each(languages.map((l) => l.code).filter((code) => code !== 'en'))('are translated in %s, not copied from English', (code) => {
    const words = flatten(visitorCatalogues[code] as Catalogue)
    for (const key of keys) {
      expect(words.get(key)?.trim(), `${code} ${key}`).toBeTruthy()
      expect(words.get(key), `${code} ${key}`).not.toBe(english.get(key))
    }
  })
})
