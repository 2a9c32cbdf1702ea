import { afterEach, describe, expect, it } from 'vitest'
import type { VisitOverview } from '../../electron/shared/visits'
import { overviewFigures, overviewRange } from '../../renderer/src/screens/visits/overview-figures'

/** The Overview's counts drawn by the kiosk's own clock (Visits → Overview). */
const zone = process.env.TZ
afterEach(() => {
  if (zone === undefined) delete process.env.TZ
  else process.env.TZ = zone
})

const empty: VisitOverview = { arrivals: [], onSiteNow: 0, ended: 0, averageStaySeconds: null, busiestHosts: [] }

describe('the Overview’s figures', () => {
  it('asks for whole local days: the weeks before today, and today', () => {
    process.env.TZ = 'Asia/Kolkata'
    const now = new Date(2026, 10, 30, 15, 20)
    expect(overviewRange(4, now)).toEqual({ from: '2026-11-01T18:30:00.000Z', to: '2026-11-30T18:29:59.999Z' })
  })

  it('puts each quarter hour in its local hour (a half-hour zone), today apart from the same weekday before, averaged over the weeks', () => {
    process.env.TZ = 'Asia/Kolkata'
    const now = new Date(2026, 10, 30, 15, 20) // a Monday
    const at = (days: number, hour: number, minute: number) => new Date(2026, 10, 30 - days, hour, minute).getTime()
    const overview: VisitOverview = {
      ...empty,
      arrivals: [
        [at(0, 9, 0), 2],
        [at(0, 9, 45), 1],
        [at(0, 14, 30), 4],
        [at(7, 9, 15), 3], // last Monday
        [at(14, 9, 30), 5], // the Monday before
        [at(3, 9, 0), 50], // a Friday: not compared
      ],
      onSiteNow: 6,
      averageStaySeconds: 95 * 60,
      busiestHosts: [{ hostId: 'h1', name: 'Hana', visits: 9 }],
    }
    const figures = overviewFigures(overview, 4, now, 'en')
    expect(figures.today[9]).toBe(3)
    expect(figures.today[14]).toBe(4)
    expect(figures.today.reduce((a, b) => a + b)).toBe(7)
    expect(figures.weekdayAverage[9]).toBe(2) // (3 + 5) / 4 weeks
    expect(figures.weekdayAverage.reduce((a, b) => a + b)).toBe(2)
    expect(figures).toMatchObject({ weekday: 'Monday', visits: 65, onSiteNow: 6, averageStayMinutes: 95, busiestHosts: [{ name: 'Hana', visits: 9 }] })
    expect(overviewFigures(overview, 4, now, 'fr').weekday).toBe('lundi')
  })

  it('follows the wall clock over a change of daylight saving time', () => {
    process.env.TZ = 'Europe/Berlin'
    // Sunday 29 March 2026: clocks go from 02:00 to 03:00. 08:00 local is 06:00 UTC that day, 07:00 UTC a week before.
    const now = new Date(2026, 2, 29, 12, 0)
    const overview: VisitOverview = { ...empty, arrivals: [[Date.UTC(2026, 2, 29, 6, 0), 1], [Date.UTC(2026, 2, 22, 7, 0), 1]] }
    const figures = overviewFigures(overview, 1, now, 'en')
    expect(figures.today[8]).toBe(1)
    expect(figures.weekdayAverage[8]).toBe(1)
  })
})
