import { methodNames, type MethodInput, type MethodName, type MethodOutput } from './contract'
import { unwrapEnvelope } from './errors'
import { kioskEventSchema, type KioskEvent } from './events'

/**
 * The API object the renderer sees as window.kiosk: one async function per contract method, and
 * onEvent to hear what the services push (returns the function that stops listening).
 */
export type KioskApi = {
  [M in MethodName]: (input: MethodInput<M>) => Promise<MethodOutput<M>>
} & { onEvent(listener: (event: KioskEvent) => void): () => void }

/** One call over a transport (IPC or the web bridge), resolving to the handler's envelope. */
export type Invoke = (method: MethodName, input: unknown) => Promise<unknown>

/** Starts delivering raw events from a transport to `listener`; returns the function that stops it. */
export type Subscribe = (listener: (raw: unknown) => void) => () => void

/** Builds the frozen API over any transport; failures come back as thrown KioskErrors. */
export function createKioskApi(invoke: Invoke, subscribe: Subscribe): KioskApi {
  const api: Record<string, unknown> = {}
  for (const method of methodNames) {
    api[method] = async (input?: unknown) => unwrapEnvelope(await invoke(method, input ?? {}))
  }
  api.onEvent = (listener: (event: KioskEvent) => void) =>
    subscribe((raw) => {
      // Events are data from another process: only well-formed ones reach the UI.
      const parsed = kioskEventSchema.safeParse(raw)
      if (parsed.success) listener(parsed.data)
    })
  return Object.freeze(api) as KioskApi
}

/** The IPC channel that carries one contract method between preload and main. */
export const ipcChannel = (method: MethodName): string => `kiosk:${method}`
