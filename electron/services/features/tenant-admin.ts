import type { z } from 'zod'
import type { AppRecord, Tenant } from '../../shared/api-models'
import { KioskError } from '../../shared/errors'
import type { algorithmInput, livenessInput, updateTenantInput } from '../../shared/workflows'
import type { Backend } from '../backend'
import type { Feature } from './feature'

/** Administration of the kiosk's own tenant; each change answers with the tenant as it now is. */
export function tenantAdminOf(backend: Backend) {
  const { persons, tenantCode } = backend
  const tenant = () => persons.getTenant(tenantCode)
  const ensure = (changed: boolean, what: string): void => {
    if (!changed) throw new KioskError('NOT_FOUND', `${what} is not associated with tenant ${tenantCode}.`)
  }
  return {
    get: tenant,
    async update(input: z.infer<typeof updateTenantInput>): Promise<Tenant> {
      await persons.updateTenant(tenantCode, input)
      return tenant()
    },
    apps: () => persons.apps(tenantCode),
    async app(appCode: string): Promise<AppRecord> {
      const found = await persons.app(tenantCode, appCode)
      if (!found) throw new KioskError('NOT_FOUND', `App ${appCode} is not associated with tenant ${tenantCode}.`)
      return found
    },
    async associateApp(appCode: string): Promise<Tenant> {
      await persons.associateApp(tenantCode, appCode)
      return tenant()
    },
    async disassociateApp(appCode: string): Promise<Tenant> {
      ensure(await persons.disassociateApp(tenantCode, appCode), `App ${appCode}`)
      return tenant()
    },
    async associateAlgorithm(input: z.infer<typeof algorithmInput>): Promise<Tenant> {
      // Every licence field is sent, as the vendor's samples do: no note is "", no limit is 0, no expiry is null.
      const licence = input.licenseData ?? {}
      await persons.associateAlgorithm(tenantCode, input.algCode, { info: licence.info ?? '', maxIdentities: licence.maxIdentities ?? 0, expireDate: licence.expireDate ?? null })
      return tenant()
    },
    async disassociateAlgorithm(algCode: string): Promise<Tenant> {
      ensure(await persons.disassociateAlgorithm(tenantCode, algCode), `Algorithm ${algCode}`)
      return tenant()
    },
    async associateLiveness(input: z.infer<typeof livenessInput>): Promise<Tenant> {
      await persons.associateLiveness(tenantCode, input.algCode, input.livenessCode)
      return tenant()
    },
    async disassociateLiveness(input: z.infer<typeof livenessInput>): Promise<Tenant> {
      ensure(await persons.disassociateLiveness(tenantCode, input.algCode, input.livenessCode), `Liveness ${input.livenessCode}`)
      return tenant()
    },
  }
}

/** Administration of the kiosk's own tenant (the one in the settings) on the servers. */
export function tenantAdmin(deps: { backend: () => Promise<Backend> }): Feature {
  const tenant = async () => tenantAdminOf(await deps.backend())
  return {
    handlers: {
      getTenant: async () => (await tenant()).get(),
      updateTenant: async (input) => (await tenant()).update(input),
      getTenantApps: async () => (await tenant()).apps(),
      getTenantApp: async (input) => (await tenant()).app(input.appCode),
      associateApp: async (input) => (await tenant()).associateApp(input.appCode),
      disassociateApp: async (input) => (await tenant()).disassociateApp(input.appCode),
      associateAlgorithm: async (input) => (await tenant()).associateAlgorithm(input),
      disassociateAlgorithm: async (input) => (await tenant()).disassociateAlgorithm(input.algCode),
      associateLiveness: async (input) => (await tenant()).associateLiveness(input),
      disassociateLiveness: async (input) => (await tenant()).disassociateLiveness(input),
    },
  }
}
