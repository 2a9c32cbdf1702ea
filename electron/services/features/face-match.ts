import { KioskError } from '../../shared/errors'
import type { LivenessGate } from '../liveness/gate'
import type { OfflineDecisions } from '../replica/offline-decisions'
import type { Feature } from './feature'

/** Face match of two images: liveness on the one from the camera (when said), then the servers decide, or this device. */
export function faceMatch(deps: { liveness: LivenessGate; decisions: Pick<OfflineDecisions, 'faceMatch'> }): Feature {
  return {
    handlers: {
      faceMatch: async (input, call) => {
        const camera = input.livenessFor ? input[input.livenessFor] : null
        if (input.liveness && !camera) throw new KioskError('INVALID_INPUT', 'Say which image the liveness frames belong to (livenessFor).')
        const judged = await deps.liveness.judge('face-match', input, camera ? [camera] : [], call.actor.role)
        return { ...(await deps.decisions.faceMatch(input)), liveness: judged.outcome }
      },
    },
  }
}
