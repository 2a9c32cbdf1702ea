import { describe, expect, it } from 'vitest'
import { livenessPolicy, requiredChecks } from '../../electron/services/liveness/policy'

const tenant = (...liveness: string[][]) => ({ algorithms: liveness.map((codes, i) => ({ code: `ALG${i}`, licenseData: null, liveness: codes })) })
const offline = async (): Promise<never> => {
  throw new Error('connect ECONNREFUSED')
}

describe('liveness policy', () => {
  it('requires the known codes on any of the tenant’s algorithms, each once, and ignores a vendor’s own codes', () => {
    expect(requiredChecks(tenant([], ['passive-pad', 'VENDOR-LIVE'], ['active-challenge', 'passive-pad']))).toEqual(['active-challenge', 'passive-pad'])
    expect(requiredChecks(tenant(['VENDOR-LIVE']))).toEqual([])
    expect(requiredChecks({ algorithms: null })).toEqual([])
    expect(requiredChecks(tenant())).toEqual([])
  })

  it('keeps the last policy read for a tenant when the tenant cannot be read', async () => {
    const lines: string[] = []
    const policy = livenessPolicy((line) => lines.push(line))
    expect(await policy.required('KIOSK', async () => tenant(['passive-pad']))).toEqual(['passive-pad'])
    expect(await policy.required('KIOSK', offline)).toEqual(['passive-pad'])
    // A later read replaces it, also when it asks for nothing.
    expect(await policy.required('KIOSK', async () => tenant([]))).toEqual([])
    expect(await policy.required('KIOSK', offline)).toEqual([])
    expect(lines.join('\n')).toMatch(/using the last policy read/)
  })

  it('fails closed: every known check when the tenant was never read (or another tenant was)', async () => {
    const policy = livenessPolicy()
    expect(await policy.required('KIOSK', offline)).toEqual(['active-challenge', 'screen-light', 'passive-pad'])
    await policy.required('OTHER', async () => tenant([]))
    expect(await policy.required('KIOSK', offline)).toEqual(['active-challenge', 'screen-light', 'passive-pad'])
  })
})
