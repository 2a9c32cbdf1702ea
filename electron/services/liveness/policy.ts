import type { Tenant } from '../../shared/api-models'
import { isLivenessCode, livenessCodes, type LivenessCode } from '../../shared/liveness'

/** The checks a tenant record asks for: the known codes on any of its algorithms (a vendor's own codes are not checked here). */
export function requiredChecks(tenant: Pick<Tenant, 'algorithms'>): LivenessCode[] {
  const asked = new Set((tenant.algorithms ?? []).flatMap((algorithm) => algorithm.liveness))
  return livenessCodes.filter((code) => asked.has(code) && isLivenessCode(code))
}

/**
 * Which liveness checks the kiosk's tenant requires. The tenant record is read each time; when it
 * cannot be read (offline), the last policy read for that tenant stands, and when none was ever
 * read every known check is required: the checks run on the kiosk, so failing closed costs no server.
 */
export function livenessPolicy(log: (line: string) => void = () => {}) {
  const last = new Map<string, LivenessCode[]>()
  return {
    async required(tenantCode: string, readTenant: () => Promise<Pick<Tenant, 'algorithms'>>): Promise<LivenessCode[]> {
      try {
        const checks = requiredChecks(await readTenant())
        last.set(tenantCode, checks)
        return checks
      } catch (error) {
        const known = last.get(tenantCode)
        log(`liveness: the tenant could not be read (${error instanceof Error ? error.message : 'unknown error'}); ${known ? 'using the last policy read' : 'requiring every known check'}`)
        return known ?? [...livenessCodes]
      }
    },
  }
}

export type LivenessPolicy = ReturnType<typeof livenessPolicy>
