import { describe, expect, it } from 'vitest'
import { offlineWords } from '../../electron/services/audited-handlers'
import { ApiError } from '../../electron/services/clients/api-error'
import { unreachable } from '../../electron/services/replica/offline-decisions'
import { verifyFor } from '../../electron/services/role-views'
import { KioskError } from '../../electron/shared/errors'
import type { VerifyVisitorResult } from '../../electron/shared/workflows'

describe('deciding offline', () => {
  it('falls back only when the servers could not be reached, never when they answered', () => {
    expect(unreachable(new ApiError('UNREACHABLE', 'connection refused', null))).toBe(true)
    expect(unreachable(new ApiError('TIMEOUT', 'no answer', null))).toBe(true)
    for (const status of [502, 503, 504]) expect(unreachable(new ApiError('SERVER_ERROR', 'gateway', status))).toBe(true)
    // The server itself failing, refusing or not knowing the kiosk: it answered, so it decides.
    expect(unreachable(new ApiError('SERVER_ERROR', 'internal error', 500))).toBe(false)
    expect(unreachable(new ApiError('SERVER_ERROR', 'too many requests', 429))).toBe(false)
    expect(unreachable(new ApiError('REJECTED', 'bad request', 400))).toBe(false)
    expect(unreachable(new ApiError('UNAUTHORIZED', 'bad token', 401))).toBe(false)
    expect(unreachable(new ApiError('BAD_REPLY', 'not JSON', 200))).toBe(false)
    expect(unreachable(new KioskError('NOT_CONFIGURED', 'no credentials'))).toBe(false)
    expect(unreachable(new Error('boom'))).toBe(false)
  })

  it('says in the audit that a decision was made on this device, and against which record', () => {
    expect(offlineWords(undefined)).toBeNull()
    expect(offlineWords({ recordAt: null, lastSyncAt: null })).toBe('offline: checked on this device')
    expect(offlineWords({ recordAt: Date.UTC(2026, 10, 20), lastSyncAt: null })).toBe('offline: checked on this device (local record of 2026-11-20T00:00:00.000Z)')
  })

  it('shows a visitor the local record’s age only with a match (an age would say the e-mail is known here)', () => {
    const person = { uuid: '8f0e3c9a-1111-4a4a-8a8a-0123456789ab', userId: 'ana@example.org', deviceId: null, created: 1, modified: 1 } as unknown as NonNullable<VerifyVisitorResult['person']>
    const result = (decision: VerifyVisitorResult['decision']): VerifyVisitorResult => ({
      decision,
      score: 30,
      threshold: 48,
      scaleMax: 100,
      thresholdSource: 'server',
      person,
      offline: { recordAt: 1_700_000_000_000, lastSyncAt: 1_700_000_100_000 },
    })
    expect(verifyFor('visitor', result('match')).offline).toEqual({ recordAt: 1_700_000_000_000, lastSyncAt: 1_700_000_100_000 })
    expect(verifyFor('visitor', result('no-match'))).toMatchObject({ decision: 'no-match', score: null, person: null, offline: { recordAt: null, lastSyncAt: 1_700_000_100_000 } })
    expect(verifyFor('operator', result('no-match')).offline).toEqual({ recordAt: 1_700_000_000_000, lastSyncAt: 1_700_000_100_000 })
    const { offline: _none, ...online } = result('no-match')
    expect(verifyFor('visitor', online)).not.toHaveProperty('offline')
  })
})
