import { describe, expect, it } from 'vitest'
import type { TemplateTypeInfo } from '../../electron/shared/api-models'
import type { Backend } from '../../electron/services/backend'
import { decisionThreshold } from '../../electron/services/workflows/thresholds'

/** Only what decisionThreshold reads of a backend: the configured type, its info and the overrides. */
function backendWith(info: Partial<TemplateTypeInfo> | null, overrides: { verify?: number | null; identify?: number | null } = {}): Backend {
  const full = info && { templateType: 'Face:X', scoreThreshold: null, numSamplesForEnroll: 1, isInstantiated: true, ...info }
  return {
    templateType: 'Face:X',
    verifyThresholdOverride: overrides.verify ?? null,
    identifyThresholdOverride: overrides.identify ?? null,
    templateInfo: async () => full,
  } as unknown as Backend
}

describe('decision threshold', () => {
  it("uses the template type's own threshold and scale when staff set none", async () => {
    expect(await decisionThreshold(backendWith({ scoreThreshold: 0.8 }), 'verify')).toEqual({ value: 0.8, scaleMax: 1, source: 'server' })
    expect(await decisionThreshold(backendWith({ scoreThreshold: 48 }), 'identify')).toEqual({ value: 48, scaleMax: 100, source: 'server' })
  })

  it("uses a staff override on the type's scale, per decision", async () => {
    const backend = backendWith({ scoreThreshold: 0.8 }, { verify: 0.9 })
    expect(await decisionThreshold(backend, 'verify')).toEqual({ value: 0.9, scaleMax: 1, source: 'settings' })
    expect(await decisionThreshold(backend, 'identify')).toEqual({ value: 0.8, scaleMax: 1, source: 'server' })
  })

  it('refuses an override off the scale (48 against a 0–1 type) instead of deciding with it', async () => {
    await expect(decisionThreshold(backendWith({ scoreThreshold: 0.8 }, { verify: 48 }), 'verify')).rejects.toMatchObject({
      code: 'NOT_CONFIGURED',
      message: expect.stringContaining('0–1 scale'),
    })
  })

  it('needs an override when the server gives no threshold, and an installed type', async () => {
    await expect(decisionThreshold(backendWith({ scoreThreshold: null }), 'verify')).rejects.toMatchObject({ code: 'NOT_CONFIGURED' })
    expect(await decisionThreshold(backendWith({ scoreThreshold: null }, { verify: 60 }), 'verify')).toEqual({ value: 60, scaleMax: 100, source: 'settings' })
    await expect(decisionThreshold(backendWith(null), 'verify')).rejects.toMatchObject({ code: 'NOT_CONFIGURED', message: expect.stringContaining('Face:X') })
  })
})
