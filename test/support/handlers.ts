import { KioskError } from '../../electron/shared/errors'
import type { EngineStatus } from '../../electron/shared/contract'
import { createHandlers, type ServiceContext } from '../../electron/services/handlers'

const notConfigured = async (): Promise<never> => {
  throw new KioskError('NOT_CONFIGURED', 'No server in this test.')
}

/** The real handler table over a context with no servers behind it: for transport-level tests. */
export function handlersWithoutServers(engineStatus: () => EngineStatus, overrides: Partial<ServiceContext> = {}) {
  return createHandlers({
    shell: 'web',
    version: '1.2.3',
    engineStatus,
    backend: notConfigured,
    enrollVisitor: notConfigured,
    settings: { get: notConfigured, update: notConfigured },
    credentials: { status: notConfigured, set: notConfigured, clear: notConfigured },
    testConnection: notConfigured,
    outbox: { state: notConfigured, retry: notConfigured, discard: notConfigured },
    audit: () => {
      throw new KioskError('AUDIT_UNAVAILABLE', 'No audit trail in this test.')
    },
    ...overrides,
  })
}
