import { connect } from '../../electron/services/clients/connect'
import type { Backend } from '../../electron/services/backend'
import { TEST_CLIENT, TEST_TENANT } from './engine'

/** Real clients for a test engine (or anything speaking its API at `url`), as the kiosk builds them. */
export function testBackend(url: string, options: { requestTimeoutMs?: number; templateType?: string } = {}): Backend & { close(): Promise<void> } {
  const clients = connect({
    personServerUrl: url,
    bioEngineUrl: `${url}/bioengine`,
    credentials: async () => ({ clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret }),
    requestTimeoutMs: options.requestTimeoutMs ?? 20_000,
  })
  return {
    persons: clients.persons,
    bio: clients.bio,
    tenantCode: TEST_TENANT,
    appCode: 'KIOSK',
    templateType: options.templateType ?? 'Face:HumanFaceRes',
    verifyThreshold: 48,
    identifyThreshold: 48,
    identifyMaxResults: 5,
    close: clients.close,
  }
}
