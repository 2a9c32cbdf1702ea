import { availableParallelism } from 'node:os'
import { parseEngineArgs } from './cli-args'
import { loadFacePlugins } from './face'
import { createEngineLog } from './logs/engine-log'
import { createEngine } from './server'
import { securePrivateFolder } from './store/private-folder'

/** Entry point of the standalone embedded engine (npm run engine, and the kiosk's child process). */
async function main(): Promise<void> {
  let args
  try {
    args = parseEngineArgs(process.argv.slice(2))
  } catch (error) {
    console.error((error as Error).message)
    process.exit(2)
  }
  // Whatever this process creates (SQLite's files, logs, temporary files) is this user's alone.
  process.umask(0o077)
  // A site's engines must seal with one key: one made up here would seal what no other engine can read.
  if (args.database && !process.env.ENGINE_TEMPLATE_KEY) {
    console.error('--database needs ENGINE_TEMPLATE_KEY (base64, 32 bytes), the template key every engine of the site shares.')
    process.exit(2)
  }
  const skipped = securePrivateFolder(args.data, args.database ? [] : ['engine.db'])
  const log = createEngineLog(args.data, process.env.ENGINE_LOG_LEVEL)
  log.engine(`starting (data ${args.data})`)
  if (skipped.length > 0) log.engine(`left alone (symbolic links, not followed): ${skipped.join(', ')}`)
  const threads = Number(process.env.ENGINE_FACE_THREADS) || Math.min(2, availableParallelism())
  // Workers idle this long are retired (each holds a model, ~100 MB); the next image starts one.
  const idleMs = Number(process.env.ENGINE_FACE_IDLE_MS) || 60_000
  const plugins = await loadFacePlugins({ threads, idleMs, log: log.plugins })
  const engine = await createEngine({ dataDir: args.data, plugins, log, databaseUrl: args.database, readDatabaseUrl: args.readDatabase, metricsToken: process.env.ENGINE_METRICS_TOKEN || undefined, metrics: process.env.ENGINE_METRICS !== 'off', trustedProxy: args.trustedProxy, tenant: args.tenant })
  const { store } = engine.ctx

  if (args.clientId && args.clientSecret) await store.clients.ensure(args.clientId, args.clientSecret)
  if (args.tenant && !(await store.tenants.get(args.tenant))) {
    await store.tenants.upsert(args.tenant, { name: args.tenant, maxIdentities: 0, defaultPostBack: null })
  }

  await engine.app.listen({ host: args.host, port: args.port })
  const address = engine.app.server.address()
  const port = typeof address === 'object' && address ? address.port : args.port
  const where = args.host.includes(':') ? `[${args.host}]` : args.host
  // The database's location may name a host; never its password (the URL has none, see cli-args.ts).
  log.engine(`ready on ${where}:${port} with ${plugins.map((p) => p.name).join(', ')}${args.database ? ` on PostgreSQL ${new URL(args.database).host}` : ' on SQLite'}`)
  console.log(`engine ready http://${where}:${port}`)

  let stopping = false
  const shutdown = () => {
    if (stopping) return
    stopping = true
    engine.close().then(
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

main().catch((error: unknown) => {
  console.error(`engine failed to start: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
