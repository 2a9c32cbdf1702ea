import type { VisitOverview, VisitOverviewRange } from '@shared/visits'

/** The Overview compares today with the same weekday in each of the weeks before it. */
export const OVERVIEW_WEEKS = [1, 4, 13] as const
export type OverviewWeeks = (typeof OVERVIEW_WEEKS)[number]

/** The range asked for: `weeks` whole weeks before today, and today, by this kiosk's clock. */
export function overviewRange(weeks: OverviewWeeks, now: Date): VisitOverviewRange {
  const from = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 7 * weeks)
  const to = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1)
  return { from: from.toISOString(), to: new Date(to.getTime() - 1).toISOString() }
}

export interface OverviewFigures {
  /** Check-ins today in each hour of the day (0–23, this kiosk's clock). */
  today: number[]
  /** The same weekday's check-ins in each hour, averaged over the weeks before today. */
  weekdayAverage: number[]
  /** The weekday's name, in the staff's language. */
  weekday: string
  weeks: OverviewWeeks
  /** Check-ins in the whole range (today included). */
  visits: number
  onSiteNow: number
  /** Average stay in minutes, of the visits in the range that ended (null: none ended). */
  averageStayMinutes: number | null
  busiestHosts: VisitOverview['busiestHosts']
}

const sameDay = (a: Date, b: Date) => a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate()

/**
 * The site's counts drawn by this kiosk's clock: each quarter hour's check-ins put in the hour of
 * its local time (so a change of daylight saving time falls where the wall clock says), today's
 * apart from the same weekday's in earlier weeks.
 */
export function overviewFigures(overview: VisitOverview, weeks: OverviewWeeks, now: Date, language: string): OverviewFigures {
  const today = new Array<number>(24).fill(0)
  const earlier = new Array<number>(24).fill(0)
  let visits = 0
  for (const [at, count] of overview.arrivals) {
    const when = new Date(at)
    visits += count
    if (sameDay(when, now)) today[when.getHours()]! += count
    else if (when.getDay() === now.getDay()) earlier[when.getHours()]! += count
  }
  return {
    today,
    weekdayAverage: earlier.map((count) => count / weeks),
    weekday: new Intl.DateTimeFormat(language, { weekday: 'long' }).format(now),
    weeks,
    visits,
    onSiteNow: overview.onSiteNow,
    averageStayMinutes: overview.averageStaySeconds === null ? null : overview.averageStaySeconds / 60,
    busiestHosts: overview.busiestHosts,
  }
}
