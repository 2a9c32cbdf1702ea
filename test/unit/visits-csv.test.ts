import { afterEach, describe, expect, it } from 'vitest'
import type { Visit } from '../../electron/shared/visits'
import { localIsoTime, visitsCsv } from '../../electron/services/visits/csv'

// The visit log's CSV gives times as the Visits screen shows them: the kiosk's local time, with its
// offset from UTC so a spreadsheet elsewhere still reads the same instant.
const zone = process.env.TZ
afterEach(() => {
  if (zone === undefined) delete process.env.TZ
  else process.env.TZ = zone
})

const visit = (checkedInAt: string, checkedOutAt: string | null): Visit => ({
  id: 'v1',
  personUuid: '5b0f7c2e-8a41-4b8e-9a57-3f2f0d6c1a11',
  email: 'ada@example.com',
  firstName: 'Ada',
  hostId: null,
  hostName: null,
  purpose: '',
  checkedInAt,
  checkedOutAt,
  checkedOutBy: checkedOutAt ? 'visitor' : null,
  kioskId: 'k',
  kioskName: null,
  inviteId: null,
})

describe('visits CSV times', () => {
  it('writes local time with its offset, summer and winter, east and west of UTC', () => {
    process.env.TZ = 'Europe/Paris'
    expect(localIsoTime('2026-07-01T12:30:05.000Z')).toBe('2026-07-01T14:30:05+02:00')
    expect(localIsoTime('2026-01-15T23:10:00.000Z')).toBe('2026-01-16T00:10:00+01:00')
    process.env.TZ = 'America/St_Johns'
    expect(localIsoTime('2026-01-15T02:00:00.000Z')).toBe('2026-01-14T22:30:00-03:30')
    process.env.TZ = 'UTC'
    expect(localIsoTime('2026-01-15T02:00:00.000Z')).toBe('2026-01-15T02:00:00+00:00')
  })

  it('puts local times in the check-in and check-out columns, and nothing for a visit still open', () => {
    process.env.TZ = 'Asia/Kolkata'
    const [, line] = visitsCsv([visit('2026-03-02T08:00:00.000Z', null)]).split('\r\n')
    expect(line).toContain('"2026-03-02T13:30:00+05:30",""')
    const [, ended] = visitsCsv([visit('2026-03-02T08:00:00.000Z', '2026-03-02T09:15:00.000Z')]).split('\r\n')
    expect(ended).toContain('"2026-03-02T13:30:00+05:30","2026-03-02T14:45:00+05:30"')
  })
})

describe('visits CSV kiosks', () => {
  it("names each visit's kiosk right after its id (kept for a join), and leaves the name empty where the visit has none", () => {
    process.env.TZ = 'UTC'
    const named: Visit = { ...visit('2026-03-02T08:00:00.000Z', null), id: 'v2', kioskId: '3f6c0a52-1d2e-4b7a-9c8d-0e1f2a3b4c5d', kioskName: '=Lobby "East"', inviteId: 'i1' }
    const [header, own, site, end] = visitsCsv([visit('2026-03-02T08:00:00.000Z', null), named]).split('\r\n')
    const cells = (line: string) => line.slice(1, -1).split('","')
    const names = cells(header!)
    expect(names).toEqual(['visit', 'email', 'first name', 'host', 'purpose', 'checked in', 'checked out', 'checked out by', 'kiosk', 'kiosk name', 'invite'])
    const at = (line: string, column: string) => cells(line)[names.indexOf(column)]
    // A kiosk on its own (or one the site no longer knows): its id, and an empty name.
    expect([at(own!, 'kiosk'), at(own!, 'kiosk name'), at(own!, 'invite')]).toEqual(['k', '', ''])
    // A named one: its name, a cell like any other (quotes doubled, a formula defused).
    expect([at(site!, 'kiosk'), at(site!, 'kiosk name'), at(site!, 'invite')]).toEqual(['3f6c0a52-1d2e-4b7a-9c8d-0e1f2a3b4c5d', "'=Lobby \"\"East\"\"", 'i1'])
    expect(end).toBe('')
  })
})
