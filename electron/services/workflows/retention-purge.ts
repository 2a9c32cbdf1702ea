import type { Backend } from '../backend'
import { templatesOf } from './identity-checks'

export const DAY_MS = 86_400_000
const PAGE = 100

/** One visitor whose enrollment is older than the retention: who, and when they last enrolled. */
export interface ExpiredEnrollment {
  userId: string
  personUuid: string
  enrolledAt: number
}

/** When the person's newest template of the kiosk's type was made; null without one (or a timestamp). */
export async function newestTemplateAt(backend: Backend, personUuid: string): Promise<number | null> {
  const stamps = (await templatesOf(backend, personUuid)).map((t) => t.timestamp).filter((t): t is number => t !== null)
  return stamps.length > 0 ? Math.max(...stamps) : null
}

/**
 * Every visitor of the tenant with when they last enrolled: their newest template of the kiosk's
 * type or, without templates, their record's creation; null when the server says neither.
 */
export async function enrollmentAges(backend: Backend): Promise<Array<Omit<ExpiredEnrollment, 'enrolledAt'> & { enrolledAt: number | null }>> {
  const ages: Array<Omit<ExpiredEnrollment, 'enrolledAt'> & { enrolledAt: number | null }> = []
  for (let pageNo = 0; ; pageNo++) {
    const page = await backend.persons.tenantPersons(backend.tenantCode, { pageNo, pageSize: PAGE })
    for (const person of page.content) {
      ages.push({ userId: person.userId, personUuid: person.uuid, enrolledAt: (await newestTemplateAt(backend, person.uuid)) ?? person.created })
    }
    if (page.content.length < PAGE || pageNo + 1 >= page.totalPages) return ages
  }
}

/**
 * The tenant's visitors enrolled longer ago than `days`. A person with neither timestamp is kept:
 * the server did not say when they enrolled, and guessing would delete someone.
 */
export async function expiredEnrollments(backend: Backend, days: number, now: number): Promise<ExpiredEnrollment[]> {
  const cutoff = now - days * DAY_MS
  return (await enrollmentAges(backend)).filter((e): e is ExpiredEnrollment => e.enrolledAt !== null && e.enrolledAt < cutoff)
}

export interface VisitorRetentionDeps {
  /** The retention in days; null: off. */
  days: () => Promise<number | null>
  backend: () => Promise<Backend>
  now: () => number
  /** Removes one visitor by the removal rule as an audited act of the system. */
  remove: (backend: Backend, expired: ExpiredEnrollment, days: number) => Promise<unknown>
  log: (line: string) => void
}

/**
 * The visitor retention: `run` removes every visitor past it, one run at a time (a run asked for
 * while one is going joins it); a failure is logged and the next run tries again.
 */
export function visitorRetention(deps: VisitorRetentionDeps): { run(): Promise<void> } {
  let running: Promise<void> | null = null
  const once = async () => {
    const days = await deps.days()
    if (days === null) return
    const backend = await deps.backend()
    for (const expired of await expiredEnrollments(backend, days, deps.now())) await deps.remove(backend, expired, days)
  }
  return {
    run: () =>
      (running ??= once()
        .catch((error: unknown) => deps.log(`retention: not applied this time: ${error instanceof Error ? error.message : 'unknown error'}`))
        .finally(() => (running = null))),
  }
}
