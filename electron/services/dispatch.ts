import { z } from 'zod'
import { contract, isMethodName, type MethodName, type MethodOutput } from '../shared/contract'
import { KioskError, type Envelope } from '../shared/errors'
import { roleAllows } from '../shared/staff'
import type { SessionActor } from './staff/sessions'
import { visitorError } from '../shared/visitor-errors'

/** Who is calling: the session the transport found for the caller, resolved by the services. */
export interface Call {
  actor: SessionActor
  /** The transport's key for the caller's window or tab; null when it has none (no session possible). */
  key: string | null
}

/** The handler table: one async function per contract method, given input already validated. */
export type Handlers = {
  [M in MethodName]: (input: z.infer<(typeof contract)[M]['input']>, call: Call) => Promise<MethodOutput<M>>
}

/** One call from a transport: the method, its raw input, and the caller's session key. */
export type Dispatch = (method: unknown, input: unknown, key?: string | null) => Promise<Envelope>

/**
 * Resolves a session key to its actor; `active` is false for status polls, which do not count as
 * activity. It may ask the front desk (on a site, over the network) whether the session still holds.
 */
export type ResolveActor = (key: string | null, active: boolean) => SessionActor | Promise<SessionActor>

type Log = (message: string) => void

const visitor: ResolveActor = () => ({ role: 'visitor', account: null })

/**
 * Binds a handler table to the contract. Every transport (Electron IPC, the web bridge, tests)
 * calls through this one function, so the role check, input validation and error shaping happen
 * in one place. A call whose session lacks the method's role is refused before validation or work.
 */
export function createDispatch(handlers: Handlers, resolveActor: ResolveActor = visitor, log: Log = (m) => console.error(m)): Dispatch {
  return async (method, input, key = null) => {
    let actor: SessionActor = { role: 'visitor', account: null }
    try {
      if (!isMethodName(method)) {
        throw new KioskError('UNKNOWN_METHOD', `There is no kiosk method named ${JSON.stringify(String(method)).slice(0, 80)}.`)
      }
      const spec = contract[method]
      actor = await resolveActor(key, !('poll' in spec))
      if (!roleAllows(actor.role, spec.role)) {
        throw new KioskError('FORBIDDEN', actor.role === 'visitor' ? 'Staff must sign in to do this.' : 'Your account may not do this: ask an administrator.')
      }
      const parsed = spec.input.safeParse(input)
      if (!parsed.success) {
        throw new KioskError('INVALID_INPUT', `Invalid input for ${method}: ${z.prettifyError(parsed.error)}`)
      }
      const handler = handlers[method] as (input: unknown, call: Call) => Promise<unknown>
      const value = spec.output.safeParse(await handler(parsed.data, { actor, key }))
      if (!value.success) {
        log(`kiosk: ${method} produced output outside the contract: ${z.prettifyError(value.error)}`)
        throw new KioskError('INTERNAL', `The kiosk could not complete ${method}.`)
      }
      return { ok: true, value: value.data }
    } catch (error) {
      if (error instanceof KioskError) {
        if (actor.role !== 'visitor') return { ok: false, error: error.toJSON() }
        // A visitor gets plain words; the detail goes to the log for staff.
        log(`kiosk: ${String(method)} refused for a visitor: ${error.code}: ${error.message}${requestOf(error)}`)
        return { ok: false, error: visitorError(error.toJSON(), String(method)) }
      }
      // Unexpected errors are logged by name and message only: no payloads, which may hold secrets.
      log(`kiosk: ${String(method)} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error'}`)
      const internal = { code: 'INTERNAL' as const, message: `The kiosk could not complete ${String(method)}.` }
      return { ok: false, error: actor.role === 'visitor' ? visitorError(internal, String(method)) : internal }
    }
  }
}

/** The server call behind an error, by the id its log knows it by (clients/http-client.ts). */
function requestOf(error: KioskError): string {
  const id = (error as { requestId?: unknown }).requestId
  return typeof id === 'string' ? ` (request ${id})` : ''
}
