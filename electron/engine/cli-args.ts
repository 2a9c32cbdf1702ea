import { parseArgs } from 'node:util'

export interface EngineArgs {
  port: number
  data: string
  clientId: string | undefined
  clientSecret: string | undefined
  tenant: string | undefined
}

export const engineUsage =
  'usage: npm run engine -- --port <n> --data <dir> [--client-id <id> --client-secret <secret>] [--tenant <code>]'

/**
 * Parses the engine's fixed command line; throws an Error with a plain message on bad flags.
 * The client credentials may also come from ENGINE_CLIENT_ID / ENGINE_CLIENT_SECRET, so that a
 * parent process need not show a secret in the process list.
 */
export function parseEngineArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): EngineArgs {
  const { values } = parseFlags(argv)
  values['client-id'] ??= env.ENGINE_CLIENT_ID || undefined
  values['client-secret'] ??= env.ENGINE_CLIENT_SECRET || undefined
  const port = Number(values.port)
  if (values.port === undefined || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be a whole number from 0 to 65535\n${engineUsage}`)
  }
  if (!values.data) throw new Error(`--data <dir> is required\n${engineUsage}`)
  if ((values['client-id'] === undefined) !== (values['client-secret'] === undefined)) {
    throw new Error(`--client-id and --client-secret go together\n${engineUsage}`)
  }
  return {
    port,
    data: values.data,
    clientId: values['client-id'],
    clientSecret: values['client-secret'],
    tenant: values.tenant,
  }
}

function parseFlags(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        data: { type: 'string' },
        'client-id': { type: 'string' },
        'client-secret': { type: 'string' },
        tenant: { type: 'string' },
      },
      strict: true,
    })
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${engineUsage}`)
  }
}
