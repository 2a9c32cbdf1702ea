import { z } from 'zod'

/**
 * The kiosk's one contract: every method the renderer may call, with the schemas that validate its
 * input (in the services, on every call) and describe its output. Types below are inferred from it.
 */

const noInput = z.object({}).strict()

export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  /** Which shell hosts the services: the Electron main process or the web host. */
  shell: z.enum(['electron', 'web']),
  platform: z.string(),
  nodeVersion: z.string(),
  startedAt: z.string(),
})

export const engineStateSchema = z.enum(['stopped', 'starting', 'running', 'restarting', 'failed'])

export const engineStatusSchema = z.object({
  mode: z.enum(['embedded', 'remote']),
  state: engineStateSchema,
  /** Base URL of the person server (the BioEngine lives under /bioengine on the embedded engine). */
  url: z.string().nullable(),
  pid: z.number().int().nullable(),
  restarts: z.number().int().nonnegative(),
  lastError: z.string().nullable(),
})

export const contract = {
  getAppInfo: { input: noInput, output: appInfoSchema },
  getEngineStatus: { input: noInput, output: engineStatusSchema },
} as const

export type Contract = typeof contract
export type MethodName = keyof Contract
export type MethodInput<M extends MethodName> = z.input<Contract[M]['input']>
export type MethodOutput<M extends MethodName> = z.infer<Contract[M]['output']>

export type AppInfo = z.infer<typeof appInfoSchema>
export type EngineStatus = z.infer<typeof engineStatusSchema>
export type EngineState = z.infer<typeof engineStateSchema>

export const methodNames = Object.keys(contract) as MethodName[]

export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.hasOwn(contract, name)
}
