import { afterEach, describe, expect, it } from 'vitest'
import { formatVisitDay } from '../../renderer/src/i18n/dates'

// A visit's day (an invite's date) reads one way per language wherever it is shown (the invites
// list, the printed card, the date field's words, the visitor's screen), and is the day staff picked
// in every time zone.
const zone = process.env.TZ
afterEach(() => {
  if (zone === undefined) delete process.env.TZ
  else process.env.TZ = zone
})

describe('visit days', () => {
  it('says the day in each language’s own way', () => {
    expect(formatVisitDay('2026-07-02', 'en')).toBe('July 2, 2026')
    expect(formatVisitDay('2026-07-02', 'fr')).toBe('2 juillet 2026')
    expect(formatVisitDay('2026-07-02', 'es')).toBe('2 de julio de 2026')
    expect(formatVisitDay('2026-07-02', 'ar')).toBe(new Intl.DateTimeFormat('ar', { dateStyle: 'long' }).format(new Date(2026, 6, 2, 12)))
  })

  it('keeps the calendar day far from UTC, either side', () => {
    for (const tz of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'UTC']) {
      process.env.TZ = tz
      expect(formatVisitDay('2026-01-01', 'en'), tz).toBe('January 1, 2026')
    }
  })
})
