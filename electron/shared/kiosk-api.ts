import { methodNames, type MethodInput, type MethodName, type MethodOutput } from './contract'
import { unwrapEnvelope } from './errors'

/** The API object the renderer sees as window.kiosk: one async function per contract method. */
export type KioskApi = {
  [M in MethodName]: (input: MethodInput<M>) => Promise<MethodOutput<M>>
}

/** One call over a transport (IPC or the web bridge), resolving to the handler's envelope. */
export type Invoke = (method: MethodName, input: unknown) => Promise<unknown>

/** Builds the frozen API over any transport; failures come back as thrown KioskErrors. */
export function createKioskApi(invoke: Invoke): KioskApi {
  const api: Record<string, (input?: unknown) => Promise<unknown>> = {}
  for (const method of methodNames) {
    api[method] = async (input?: unknown) => unwrapEnvelope(await invoke(method, input ?? {}))
  }
  return Object.freeze(api) as KioskApi
}

/** The IPC channel that carries one contract method between preload and main. */
export const ipcChannel = (method: MethodName): string => `kiosk:${method}`
