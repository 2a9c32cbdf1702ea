import { describe, expect, it } from 'vitest'
import { KIOSK_HEALTH_INTERVAL_MS, type KioskHealth } from '../../electron/shared/frontdesk-api'
import { healthWords } from '../../renderer/src/screens/kiosk-health-words'

const AT = Date.UTC(2026, 10, 30, 9, 0)
const WELL: KioskHealth = { version: '4.9.0', outbox: { waiting: 0, failed: 0 }, hostNoticesWaiting: 0, replicaAgeSeconds: null, camera: 'found', lastErrorCode: null, reportedAt: AT }

describe('a kiosk’s health in words', () => {
  it('says all is well, with the version, when nothing needs staff', () => {
    expect(healthWords(WELL, AT + 1000)).toBe('All well (version 4.9.0)')
  })

  it('names what needs staff first, then what waits', () => {
    const busy = { ...WELL, outbox: { waiting: 3, failed: 1 }, hostNoticesWaiting: 2, camera: 'none' as const, lastErrorCode: 'UNREACHABLE', replicaAgeSeconds: 600 }
    expect(healthWords(busy, AT)).toBe('1 enrollment needs staff; no camera found; last fault UNREACHABLE; 3 waiting to be sent; 2 host notices waiting; copy 10 min old (version 4.9.0)')
  })

  it('after two missed reports, says since when it has not been heard from', () => {
    expect(healthWords(WELL, AT + 2 * KIOSK_HEALTH_INTERVAL_MS)).toBe('All well (version 4.9.0)')
    expect(healthWords(WELL, AT + 2 * KIOSK_HEALTH_INTERVAL_MS + 1)).toMatch(/^Not heard from since /)
    expect(healthWords(null, AT)).toBe('No report yet')
  })
})
