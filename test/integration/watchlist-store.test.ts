import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openWatchlist, type WatchlistStore } from '../../electron/services/watchlist/store'

const DAY = 86_400_000
const PERSON = '5b0f7c2e-8a41-4b8e-9a57-3f2f0d6c1a11'

// The watchlist's own file, on a clock the test moves: entries match by uuid or listed e-mail, and
// alerts outlive a restart until dismissed, then go after their keeping time.
describe('watchlist store', () => {
  let dir: string
  let store: WatchlistStore | null = null
  afterEach(() => {
    store?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('matches a listed person by uuid (any case) or by the e-mail they were listed under, and nothing else', () => {
    dir = mkdtempSync(join(tmpdir(), 'watchlist-store-'))
    store = openWatchlist({ dir })
    store.add({ personUuid: PERSON.toUpperCase(), email: 'Listed@Example.com', reason: 'r', addedBy: 'admin' })
    expect(store.match([PERSON], null)).toMatchObject({ personUuid: PERSON })
    expect(store.match(['00000000-0000-4000-8000-000000000000'], ' listed@example.COM ')).toMatchObject({ personUuid: PERSON })
    expect(store.match(['00000000-0000-4000-8000-000000000000'], 'other@example.com')).toBeNull()
    expect(store.match([], null)).toBeNull()
  })

  it('keeps an open alert across a restart; forgets a dismissed one after its keeping time, never an open one', () => {
    dir = mkdtempSync(join(tmpdir(), 'watchlist-store-'))
    let clock = Date.UTC(2026, 10, 1)
    const open = () => openWatchlist({ dir, now: () => clock })
    store = open()
    const alert = { kioskId: 'k', place: 'enrollment' as const, personUuid: PERSON, email: 'listed@example.com', givenEmail: null, reason: 'r' }
    const first = store.raise(alert)
    const second = store.raise(alert)
    store.close()
    store = open()
    expect(store.openAlerts().map((a) => a.id).sort()).toEqual([first.id, second.id].sort())
    expect(store.dismiss(first.id, 'otto')).toBe(true)
    expect(store.dismiss(first.id, 'otto')).toBe(false)
    clock += 29 * DAY
    expect(store.pruneDismissed(30)).toBe(0)
    clock += 2 * DAY
    expect(store.pruneDismissed(30)).toBe(1)
    expect(store.openAlerts().map((a) => a.id)).toEqual([second.id])
  })
})
