import type { LivenessGate } from '../liveness/gate'
import type { OfflineDecisions } from '../replica/offline-decisions'
import type { Feature } from './feature'

/** Verify and Identify: liveness judged first, then the servers decide (or this device, when they cannot be reached). */
export function verification(deps: { liveness: LivenessGate; decisions: Pick<OfflineDecisions, 'verify' | 'identify'> }): Feature {
  return {
    handlers: {
      verifyVisitor: async (input, call) => {
        const judged = await deps.liveness.judge('verify', input, [input.sample], call.actor.role)
        return { ...(await deps.decisions.verify(input)), liveness: judged.outcome }
      },
      identifyVisitor: async (input, call) => {
        const judged = await deps.liveness.judge('identify', input, [input.sample], call.actor.role)
        return { ...(await deps.decisions.identify(input)), liveness: judged.outcome }
      },
    },
  }
}
