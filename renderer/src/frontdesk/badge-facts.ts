import type { Visit, VisitorCheckResult } from '@shared/visits'

/** What a badge shows of a visit: a whole Visit, or what a visitor's check-in result gives back. */
export type BadgeVisit = Pick<Visit, 'id' | 'firstName' | 'email' | 'hostName' | 'checkedInAt'>

/** The badge of a visitor's own check-in: its greeting is already their first name, or their e-mail without one. */
export function checkInBadge(result: Extract<VisitorCheckResult, { outcome: 'checked-in' }>): BadgeVisit {
  return { id: result.visitId, firstName: result.greeting, email: result.greeting, hostName: result.hostName, checkedInAt: result.checkedInAt }
}

/** What a badge's QR code says: the visit, and nothing about the person (staff scan it to find the visit). */
export const visitQrText = (visitId: string): string => `kiosk-visit:${visitId}`

/** A badge is good until the end of the day the visit began (kiosk time). */
export function badgeExpiry(checkedInAt: string): Date {
  const start = new Date(checkedInAt)
  return new Date(start.getFullYear(), start.getMonth(), start.getDate(), 23, 59)
}
