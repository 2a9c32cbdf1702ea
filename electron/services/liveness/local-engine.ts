import type { LivenessEvaluateRecord, LivenessEvaluateRequest } from '../../shared/liveness'
import { connect } from '../clients/connect'
import type { ClientCredentials } from '../clients/person-server'

export interface LocalEngineDeps {
  /** The running embedded engine's base URL: started on demand in remote mode, where it is otherwise off. */
  ensureRunning(): Promise<string>
  credentials(): Promise<ClientCredentials>
  connectTimeoutMs(): Promise<number>
}

/** Up to MAX_EVIDENCE_FRAMES frames and 10 samples go through face detection on the kiosk itself: more than a server call's usual wait. */
const EVALUATE_TIMEOUT_MS = 120_000

/**
 * The kiosk's own embedded engine as the liveness judge, in either mode: a remote BioEngine is
 * never asked (it has no such route, and the decision must not leave the kiosk's control).
 */
export function localLivenessEngine(deps: LocalEngineDeps) {
  let current: { url: string; clients: ReturnType<typeof connect> } | null = null
  return {
    async evaluate(request: LivenessEvaluateRequest): Promise<LivenessEvaluateRecord> {
      const url = await deps.ensureRunning()
      if (current?.url !== url) {
        const old = current
        current = {
          url,
          clients: connect({ personServerUrl: url, bioEngineUrl: `${url}/bioengine`, credentials: deps.credentials, connectTimeoutMs: await deps.connectTimeoutMs(), requestTimeoutMs: EVALUATE_TIMEOUT_MS }),
        }
        await old?.clients.close()
      }
      return current.clients.bio.evaluateLiveness(request)
    },
    async close(): Promise<void> {
      const old = current
      current = null
      await old?.clients.close()
    },
  }
}
