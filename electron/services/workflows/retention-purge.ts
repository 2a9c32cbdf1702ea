import type { Backend } from '../backend'
import { templatesOf } from './identity-checks'

const DAY_MS = 86_400_000
const PAGE = 100

/** One visitor whose enrollment is older than the retention: who, and when they last enrolled. */
export interface ExpiredEnrollment {
  userId: string
  personUuid: string
  enrolledAt: number
}

/**
 * The tenant's visitors whose newest template of the kiosk's type (or, without templates, whose
 * record) is older than `days`. A person with neither timestamp is kept: the server did not say
 * when they enrolled, and guessing would delete someone.
 */
export async function expiredEnrollments(backend: Backend, days: number, now: number): Promise<ExpiredEnrollment[]> {
  const cutoff = now - days * DAY_MS
  const expired: ExpiredEnrollment[] = []
  for (let pageNo = 0; ; pageNo++) {
    const page = await backend.persons.tenantPersons(backend.tenantCode, { pageNo, pageSize: PAGE })
    for (const person of page.content) {
      const stamps = (await templatesOf(backend, person.uuid)).map((t) => t.timestamp).filter((t): t is number => t !== null)
      const enrolledAt = stamps.length > 0 ? Math.max(...stamps) : person.created
      if (enrolledAt !== null && enrolledAt < cutoff) expired.push({ userId: person.userId, personUuid: person.uuid, enrolledAt })
    }
    if (page.content.length < PAGE || pageNo + 1 >= page.totalPages) return expired
  }
}
