/**
 * A visit's day ('YYYY-MM-DD', a day of the kiosk's calendar) in words, in the given language: the
 * one format for that language wherever the day is shown (the invites list, the printed card, the
 * date field, the visitor's screen). Read at local noon, so no time zone moves it to another day.
 */
export function formatVisitDay(day: string, language: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!match) return day
  const at = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12)
  return new Intl.DateTimeFormat(language, { dateStyle: 'long' }).format(at)
}
