import type { ErrorCode } from '../shared/errors'
import type { Dispatch } from './dispatch'

/** The codes that say something is wrong with the kiosk or its servers, not with what was asked. */
const FAULTS: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['UNREACHABLE', 'TIMEOUT', 'SERVER_ERROR', 'BAD_REPLY', 'ENGINE_UNAVAILABLE', 'INTERNAL'])

/** The last fault any call met (its code only), for the kiosk's health report to its site. */
export function lastFault(): { watch(dispatch: Dispatch): Dispatch; last(): ErrorCode | null } {
  let last: ErrorCode | null = null
  return {
    watch: (dispatch) => async (method, input, key) => {
      const reply = await dispatch(method, input, key)
      if (!reply.ok && FAULTS.has(reply.error.code)) last = reply.error.code
      return reply
    },
    last: () => last,
  }
}
