/** What a badge's QR code says: the visit, and nothing about the person (staff scan it to find the visit). */
export const visitQrText = (visitId: string): string => `kiosk-visit:${visitId}`

/** A badge is good until the end of the day the visit began (kiosk time). */
export function badgeExpiry(checkedInAt: string): Date {
  const start = new Date(checkedInAt)
  return new Date(start.getFullYear(), start.getMonth(), start.getDate(), 23, 59)
}
