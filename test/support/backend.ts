import { connect } from '../../electron/services/clients/connect'
import { templateInfoCache, type Backend } from '../../electron/services/backend'
import { TEST_CLIENT, TEST_TENANT } from './engine'

/** Real clients for a test engine (or anything speaking its API at `url`), as the kiosk builds them. */
export function testBackend(url: string, options: { requestTimeoutMs?: number; templateType?: string } = {}): Backend & { close(): Promise<void> } {
  const clients = connect({
    personServerUrl: url,
    bioEngineUrl: `${url}/bioengine`,
    credentials: async () => ({ clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret }),
    requestTimeoutMs: options.requestTimeoutMs ?? 60_000,
  })
  const templateInfo = templateInfoCache(clients.bio)
  return {
    persons: clients.persons,
    bio: clients.bio,
    tenantCode: TEST_TENANT,
    appCode: 'KIOSK',
    templateType: options.templateType ?? 'Face:HumanFaceRes',
    verifyThresholdOverride: null,
    identifyThresholdOverride: null,
    identifyMaxResults: 5,
    templateInfo: () => templateInfo(options.templateType ?? 'Face:HumanFaceRes'),
    close: clients.close,
  }
}
