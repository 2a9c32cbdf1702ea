import { mkdirSync } from 'node:fs'
import { parseEngineArgs } from './cli-args'
import { createEngineServer } from './server'

/** Entry point of the standalone embedded engine (npm run engine, and the kiosk's child process). */
async function main(): Promise<void> {
  let args
  try {
    args = parseEngineArgs(process.argv.slice(2))
  } catch (error) {
    console.error((error as Error).message)
    process.exit(2)
  }
  mkdirSync(args.data, { recursive: true })
  const app = createEngineServer()
  await app.listen({ host: '127.0.0.1', port: args.port })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : args.port
  console.log(`engine ready http://127.0.0.1:${port}`)

  const shutdown = () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.once('SIGTERM', shutdown)
  process.once('SIGINT', shutdown)
  // If whoever started the engine dies without stopping it (SIGKILL), do not linger as an orphan.
  const parent = process.ppid
  setInterval(() => {
    if (process.ppid !== parent) shutdown()
  }, 1000).unref()
}

void main()
