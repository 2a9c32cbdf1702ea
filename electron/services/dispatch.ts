import { z } from 'zod'
import { contract, isMethodName, type MethodName, type MethodOutput } from '../shared/contract'
import { KioskError, type Envelope } from '../shared/errors'

/** The handler table: one async function per contract method, given input already validated. */
export type Handlers = {
  [M in MethodName]: (input: z.infer<(typeof contract)[M]['input']>) => Promise<MethodOutput<M>>
}

export type Dispatch = (method: unknown, input: unknown) => Promise<Envelope>

type Log = (message: string) => void

/**
 * Binds a handler table to the contract. Every transport (Electron IPC, the web bridge, tests)
 * calls through this one function, so input validation and error shaping happen in one place.
 */
export function createDispatch(handlers: Handlers, log: Log = (m) => console.error(m)): Dispatch {
  return async (method, input) => {
    try {
      if (!isMethodName(method)) {
        throw new KioskError('UNKNOWN_METHOD', `There is no kiosk method named ${JSON.stringify(String(method)).slice(0, 80)}.`)
      }
      const { input: inputSchema, output: outputSchema } = contract[method]
      const parsed = inputSchema.safeParse(input)
      if (!parsed.success) {
        throw new KioskError('INVALID_INPUT', `Invalid input for ${method}: ${z.prettifyError(parsed.error)}`)
      }
      const handler = handlers[method] as (input: unknown) => Promise<unknown>
      const value = outputSchema.safeParse(await handler(parsed.data))
      if (!value.success) {
        log(`kiosk: ${method} produced output outside the contract: ${z.prettifyError(value.error)}`)
        throw new KioskError('INTERNAL', `The kiosk could not complete ${method}.`)
      }
      return { ok: true, value: value.data }
    } catch (error) {
      if (error instanceof KioskError) return { ok: false, error: error.toJSON() }
      // Unexpected errors are logged by name and message only: no payloads, which may hold secrets.
      log(`kiosk: ${String(method)} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error'}`)
      return { ok: false, error: { code: 'INTERNAL', message: `The kiosk could not complete ${String(method)}.` } }
    }
  }
}
