import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openLocalFrontDesk, type LocalFrontDesk } from '../../electron/records/frontdesk/local'
import type { WatchlistPlace } from '../../electron/shared/watchlist'

const DAY = 86_400_000
const PERSON = '5b0f7c2e-8a41-4b8e-9a57-3f2f0d6c1a11'
const OTHER = '00000000-0000-4000-8000-000000000000'

// The watchlist of a kiosk on its own (its front desk's frontdesk.db), on a clock the test moves:
// entries match by uuid or listed e-mail, and alerts outlive a restart until dismissed, then go
// after their keeping time.
describe('watchlist store', () => {
  let dir: string
  let opened: LocalFrontDesk | null = null
  afterEach(async () => {
    await opened?.close()
    opened = null
    rmSync(dir, { recursive: true, force: true })
  })
  const open = async (now?: () => number) => {
    await opened?.close()
    opened = await openLocalFrontDesk({ dataDir: dir, ...(now && { now }) })
    return opened.frontDesk
  }
  const subject = (personUuids: string[], givenEmail: string | null, place: WatchlistPlace = 'enrollment') => ({ personUuids, givenEmail, place, kioskId: 'k' })

  it('matches a listed person by uuid (any case) or by the e-mail they were listed under, and nothing else', async () => {
    dir = mkdtempSync(join(tmpdir(), 'watchlist-store-'))
    const desk = await open()
    await desk.addToWatchlist({ personUuid: PERSON.toUpperCase(), email: 'Listed@Example.com', reason: 'r', addedBy: 'admin' })
    expect(await desk.screen(subject([PERSON], null))).toMatchObject({ screening: 'watchlisted', personUuid: PERSON })
    expect(await desk.screen(subject([OTHER], ' listed@example.COM '))).toMatchObject({ screening: 'watchlisted', personUuid: PERSON })
    expect(await desk.screen(subject([OTHER], 'other@example.com'))).toEqual({ screening: 'clear' })
    expect(await desk.screen(subject([], null))).toEqual({ screening: 'clear' })
  })

  it('keeps an open alert across a restart; forgets a dismissed one after its keeping time, never an open one', async () => {
    dir = mkdtempSync(join(tmpdir(), 'watchlist-store-'))
    let clock = Date.UTC(2026, 10, 1)
    let desk = await open(() => clock)
    await desk.addToWatchlist({ personUuid: PERSON, email: 'listed@example.com', reason: 'r', addedBy: 'admin' })
    const first = await desk.screen(subject([PERSON], null))
    const second = await desk.screen(subject([PERSON], null))
    if (first.screening !== 'watchlisted' || second.screening !== 'watchlisted') throw new Error('not screened')
    desk = await open(() => clock)
    expect((await desk.watchlistAlerts()).map((a) => a.id).sort()).toEqual([first.alertId, second.alertId].sort())
    expect(await desk.dismissAlert(first.alertId, 'otto')).toBe(true)
    expect(await desk.dismissAlert(first.alertId, 'otto')).toBe(false)
    clock += 29 * DAY
    expect(await desk.pruneDismissed(30)).toBe(0)
    clock += 2 * DAY
    expect(await desk.pruneDismissed(30)).toBe(1)
    expect((await desk.watchlistAlerts()).map((a) => a.id)).toEqual([second.alertId])
  })

  it('gives each alert the first name the person last gave at a check-in, so the desk can greet them by it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'watchlist-store-'))
    let clock = Date.UTC(2026, 10, 1)
    const desk = await open(() => clock)
    const visit = (firstName: string | null) =>
      desk.checkIn({ person: { personUuid: PERSON, email: 'listed@example.com', firstName }, hostId: null, purpose: null, inviteToken: null, asLastTime: false, kioskId: 'k' })
    await visit('Ada')
    await desk.checkOut(PERSON)
    clock += DAY
    // A later visit without a name does not hide the one given before.
    await visit(null)
    await desk.addToWatchlist({ personUuid: PERSON, email: 'listed@example.com', reason: 'r', addedBy: 'admin' })
    await desk.screen(subject([PERSON], null, 'check-in'))
    await desk.addToWatchlist({ personUuid: OTHER, email: 'other@example.com', reason: 'r', addedBy: 'admin' })
    await desk.screen(subject([OTHER], null))
    const alerts = await desk.watchlistAlerts()
    expect(alerts.find((a) => a.personUuid === PERSON)?.firstName).toBe('Ada')
    expect(alerts.find((a) => a.personUuid === OTHER)?.firstName).toBeNull()
  })
})
