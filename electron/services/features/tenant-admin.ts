import type { Backend } from '../backend'
import { tenantAdmin as admin } from '../workflows/tenant-admin'
import type { Feature } from './feature'

/** Administration of the kiosk's own tenant (the one in the settings) on the servers. */
export function tenantAdmin(deps: { backend: () => Promise<Backend> }): Feature {
  const tenant = async () => admin(await deps.backend())
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
