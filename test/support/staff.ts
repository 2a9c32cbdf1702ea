import type { Dispatch } from '../../electron/services/dispatch'
import type { Envelope } from '../../electron/shared/errors'

/** The administrator tests sign in as (created as the first administrator when there is none). */
export const TEST_ADMIN = Object.freeze({ name: 'Test Admin', secret: 'test-admin-secret-1' })

export type SessionCall = (method: string, input?: unknown) => Promise<Envelope>

/**
 * A dispatch bound to one session key signed in as the test administrator, as a staff member's
 * window would be. A session that went idle during a long wait is signed in again once.
 */
export async function adminDispatch(dispatch: Dispatch, key = 'test:admin'): Promise<SessionCall> {
  const signIn = async () => {
    const created = await dispatch('createFirstAdmin', TEST_ADMIN, key)
    if (created.ok) return
    const signed = await dispatch('signIn', TEST_ADMIN, key)
    if (!signed.ok) throw new Error(`test admin sign-in failed: ${signed.error.code} ${signed.error.message}`)
  }
  await signIn()
  return async (method, input = {}) => {
    const reply = await dispatch(method, input, key)
    if (reply.ok || reply.error.code !== 'FORBIDDEN' || !reply.error.message.startsWith('Staff must sign in')) return reply
    await signIn()
    return dispatch(method, input, key)
  }
}

/** A call's value, or an Error with the envelope's code for one that failed (`code` on the error). */
export async function valueOf(reply: Envelope | Promise<Envelope>): Promise<any> {
  const settled = await reply
  if (!settled.ok) throw Object.assign(new Error(`${settled.error.code}: ${settled.error.message}`), { code: settled.error.code })
  return settled.value
}
