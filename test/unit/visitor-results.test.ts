import { describe, expect, it } from 'vitest'
import { enrollFor, eventFor, verifyFor } from '../../electron/services/role-views'
import type { KioskEvent } from '../../electron/shared/events'
import type { EnrollVisitorResult, VerifyVisitorResult } from '../../electron/shared/workflows'

// A visitor reads the outcome only: no score or pass mark, no photo quality, no liveness line with
// its honest label (those are for staff, who can act on them).
const person = { uuid: '8f0e3c9a-1111-4a4a-8a8a-0123456789ab', userId: 'ana@example.org', deviceId: null, created: 1, modified: 1 } as unknown as NonNullable<VerifyVisitorResult['person']>
const liveness = { status: 'passed', checks: [{ code: 'active-challenge' }] } as unknown as NonNullable<VerifyVisitorResult['liveness']>

describe('results as a visitor sees them', () => {
  it('Verify: a match says so, with no score and no liveness line; staff keep both', () => {
    const match: VerifyVisitorResult = { decision: 'match', score: 97, threshold: 48, scaleMax: 100, thresholdSource: 'server', person, liveness }
    expect(verifyFor('visitor', match)).toMatchObject({ decision: 'match', score: null, person: null, liveness: null })
    expect(verifyFor('operator', match)).toEqual(match)
  })

  it('Enroll: enrolled or queued without photo quality, status or liveness line; staff keep them', () => {
    const enrolled: EnrollVisitorResult = { outcome: 'enrolled', person, created: true, quality: 0.28, enrollmentStatus: 'ENROLLED', liveness }
    expect(enrollFor('visitor', enrolled)).toMatchObject({ outcome: 'enrolled', quality: null, enrollmentStatus: null, liveness: null })
    expect(enrollFor('admin', enrolled)).toEqual(enrolled)
    const queued: EnrollVisitorResult = { outcome: 'queued', outboxId: 'x', reason: 'servers unreachable', liveness }
    expect(enrollFor('visitor', queued)).toMatchObject({ outcome: 'queued', reason: '', liveness: null })
    const staff: EnrollVisitorResult = { outcome: 'needs-staff', reason: 'already-enrolled' }
    expect(enrollFor('visitor', staff)).toEqual(staff)
  })
})

describe('pushed events as a session sees them', () => {
  const alertId = '0b6f1c52-2222-4b4b-9b9b-0123456789ab'
  it.each(['watchlist-alert', 'watchlist-alert-dismissed', 'invite-alert', 'invite-alert-dismissed'] as const)('%s reaches staff sessions only', (type) => {
    const event: KioskEvent = { type, alertId }
    expect(eventFor('visitor', event)).toBeNull()
    expect(eventFor('operator', event)).toEqual(event)
    expect(eventFor('admin', event)).toEqual(event)
  })
})
