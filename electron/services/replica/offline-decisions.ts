import type { z } from 'zod'
import { KioskError } from '../../shared/errors'
import type { faceMatchInput, FaceMatchResult, identifyVisitorInput, IdentifyVisitorResult, verifyVisitorInput, VerifyVisitorResult } from '../../shared/workflows'
import type { Backend } from '../backend'
import { ApiError } from '../clients/api-error'
import { faceMatch } from '../workflows/face-match'
import { identifyVisitor } from '../workflows/identify-visitor'
import { verifyVisitor } from '../workflows/verify-visitor'
import type { Replica } from './replica'

/**
 * The servers could not be reached, as opposed to refusing or failing on this request: no
 * connection, no answer in time, or a gateway saying the server behind it is gone. Only then may
 * the kiosk decide on this device.
 */
export function unreachable(error: unknown): boolean {
  if (!(error instanceof KioskError)) return false
  if (error.code === 'UNREACHABLE' || error.code === 'TIMEOUT') return true
  return error instanceof ApiError && error.code === 'SERVER_ERROR' && [502, 503, 504].includes(error.status ?? 0)
}

export interface OfflineDecisionDeps {
  backend: () => Promise<Backend>
  remoteMode: () => Promise<boolean>
  replica: Replica
  /** The kiosk's own engine (its own template type), started on demand: face match needs no replica. */
  localEngine: () => Promise<Backend>
  /** Told whether the servers just answered (true) or could not be reached (false). */
  reachable: (answered: boolean) => void
}

/**
 * Verify, Identify and Face match as the visitor's screen asks for them: the remote servers
 * decide whenever they answer; when they cannot be reached in remote mode, the kiosk's own engine
 * decides (Verify and Identify only with the opted-in replica), and the result says so.
 */
export function offlineDecisions(deps: OfflineDecisionDeps) {
  async function decide<T>(remote: () => Promise<T>, local: () => Promise<(() => Promise<T>) | null>): Promise<T> {
    let result: T
    try {
      result = await remote()
    } catch (error) {
      if (!unreachable(error)) throw error
      deps.reachable(false)
      const fallback = await local()
      if (!fallback) throw error
      return fallback()
    }
    deps.reachable(true)
    return result
  }
  const replicaFor = async <T>(decision: () => Promise<T>) => ((await deps.replica.active()) ? decision : null)

  return {
    async verify(input: z.infer<typeof verifyVisitorInput>): Promise<VerifyVisitorResult> {
      const result = await decide(
        async () => verifyVisitor(await deps.backend(), input),
        // The replica knows visitors by e-mail, not by the servers' person ids.
        async () => (input.userId ? replicaFor(() => deps.replica.verify(input)) : null),
      )
      // A face the servers just confirmed is kept locally (when the tenant opted in).
      if (!result.offline && result.decision === 'match' && result.person) void deps.replica.record(result.person.userId, [input.sample], 'confirmed')
      return result
    },

    identify(input: z.infer<typeof identifyVisitorInput>): Promise<IdentifyVisitorResult> {
      return decide(
        async () => identifyVisitor(await deps.backend(), input),
        async () => replicaFor(() => deps.replica.identify(input)),
      )
    },

    faceMatch(input: z.infer<typeof faceMatchInput>): Promise<FaceMatchResult> {
      return decide(
        async () => faceMatch(await deps.backend(), input),
        async () => ((await deps.remoteMode()) ? async () => ({ ...(await faceMatch(await deps.localEngine(), input)), offline: deps.replica.offlineCheck() }) : null),
      )
    },
  }
}

export type OfflineDecisions = ReturnType<typeof offlineDecisions>
