/**
 * A site kiosk process as far as its copy of the site and its waiting acts are concerned, for the
 * SIGKILL test (test/integration/site-sync-kill.test.ts). Run with `node --import tsx`:
 *
 *   site-sync-child.ts run <dataDir> <siteUrl> [hold]   queues watchlist-alert acts (each for a new person) and
 *                                                        syncs, over and over, until killed (or 500 batches)
 *   site-sync-child.ts drain <dataDir> <siteUrl>        syncs until the site answers and no act waits; then "drained"
 *
 * `hold` (run only): `push` or `pull`: the process stops dead once the site has answered its first
 * push (or pull) and before the kiosk has done anything with the reply, so the parent can kill it
 * in exactly that window (the site applied the acts; the copy still has them waiting).
 *
 * The copy's key comes from SITE_SYNC_KEY (hex, 32 bytes), the kiosk's site token from
 * SITE_SYNC_TOKEN. Lines printed (stdout, each written before the next step begins):
 *   ready                                   the copy is open
 *   queued <id> <seq> <personUuid>          an act, printed as soon as queue() returned (it is in the copy's file)
 *   push-sent <n> / push-replied <lastSeq>  a push request, and its reply before the kiosk acknowledges it
 *   pull-sent <cookie> / pull-replied <status> reset|changes <rows>
 *                                           a pull request, and its reply before the kiosk applies it
 *   synced <state>                          a run ended (SiteSyncState: counts and times only)
 *   drained <state> <cookie>                (drain) nothing waits and the site answered
 */
import { randomUUID } from 'node:crypto'
import { HttpClient, type RawReply, type RequestOptions } from '../../electron/services/clients/http-client'
import type { SiteConnection } from '../../electron/services/clients/connect'
import { openSiteCopy } from '../../electron/services/site/site-copy'
import { siteSync, type SiteSync } from '../../electron/services/site/site-sync'
import { siteConnection } from './site-connection'

const [mode, dataDir, siteUrl, hold] = process.argv.slice(2)
const key = Buffer.from(process.env.SITE_SYNC_KEY ?? '', 'hex')
const token = process.env.SITE_SYNC_TOKEN ?? ''

// Pipes are written synchronously on Linux: a printed line is in the parent's pipe before the next step.
const say = (line: string) => process.stdout.write(`${line}\n`)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const random = (max: number) => Math.floor(Math.random() * max)

/** A pull reply as the parent counts it: a whole copy (`reset`) or the changes since the cookie, and how many rows. */
function pullSummary(reply: RawReply): string {
  try {
    const page = JSON.parse(reply.body.toString('utf8')) as { reset: boolean; ops: unknown[] }
    return `${page.reset ? 'reset' : 'changes'} ${page.ops.length}`
  } catch {
    return 'unreadable'
  }
}

/** The kiosk's HTTP client, telling the parent when a sync call goes out and when its reply is in (before the kiosk uses it). */
class TracingHttpClient extends HttpClient {
  private held = false

  override async request(call: string, options: RequestOptions): Promise<RawReply> {
    const push = options.path.endsWith('/sync/push')
    const pull = options.path.endsWith('/sync/pull')
    if (push) say(`push-sent ${(JSON.parse(String(options.body)) as { mutations: unknown[] }).mutations.length}`)
    if (pull) say(`pull-sent ${options.query?.cookie ?? ''}`)
    const reply = await super.request(call, options)
    if (push) say(`push-replied ${reply.status} ${reply.body.toString('utf8')}`)
    if (pull) say(`pull-replied ${reply.status} ${pullSummary(reply)}`)
    if (!this.held && ((push && hold === 'push') || (pull && hold === 'pull'))) {
      this.held = true
      say(`holding ${hold}`)
      // Stopped here until the parent kills it: the reply is never acted on.
      await new Promise(() => {})
    }
    return reply
  }
}

function open(): { sync: SiteSync; connection: SiteConnection } {
  // Generous: the site shares its process with the test; a slow reply is no failure here.
  const connection = siteConnection(siteUrl!, token, { connectTimeoutMs: 5_000, requestTimeoutMs: 30_000 }, TracingHttpClient)
  const copy = openSiteCopy({ dataDir: dataDir!, key, log: (line) => say(`log ${line}`) })
  const sync = siteSync({
    openCopy: async () => copy,
    siteId: async () => `site|${siteUrl}`,
    connection: async () => connection,
    log: (line) => say(`log ${line}`),
    // No timer: runs come from queue() and from the loops below.
    intervalMs: 3_600_000,
  })
  return { sync, connection }
}

async function run(): Promise<void> {
  const { sync } = open()
  await sync.copy()
  say('ready')
  for (let batch = 0; batch < 500; batch++) {
    // Mostly a few acts then a sync; now and then a sync alone (a pull with nothing to push).
    const acts = random(5)
    for (let i = 0; i < acts; i++) {
      const personUuid = randomUUID()
      const act = await sync.queue({
        kind: 'watchlist-alert',
        args: { place: i % 2 ? 'enrollment' : 'check-in', personUuid, email: `kill-${personUuid.slice(0, 8)}@example.com`, givenEmail: null, reason: 'SIGKILL test' },
      })
      // In the copy's file once queue() returned (its transaction committed): the parent may rely on it.
      say(`queued ${act.id} ${act.seq} ${personUuid}`)
      if (random(2)) await sleep(random(5))
    }
    await sync.sync()
    say(`synced ${JSON.stringify(await sync.state())}`)
  }
  await sync.stop()
  say('done')
}

async function drain(): Promise<void> {
  const { sync } = open()
  await sync.copy()
  say('ready')
  // Bounded: a site that never answers ends this with "not drained" rather than a hang.
  for (let pass = 0; pass < 200; pass++) {
    await sync.sync()
    const state = await sync.state()
    if (state?.online && state.waitingActs === 0) {
      const cookie = (await sync.copy())!.state().cookie
      await sync.stop()
      say(`drained ${JSON.stringify(state)} ${cookie}`)
      return
    }
    say(`synced ${JSON.stringify(state)}`)
    await sleep(100)
  }
  await sync.stop()
  say('not drained')
  process.exitCode = 1
}

if (key.length !== 32 || !token || !dataDir || !siteUrl) {
  console.error('usage: site-sync-child.ts run|drain <dataDir> <siteUrl> [push|pull], with SITE_SYNC_KEY (32 bytes, hex) and SITE_SYNC_TOKEN')
  process.exit(2)
}
// Should the parent die without killing this process, its end of stdin closes: stop too.
process.stdin.on('end', () => process.exit(3))
process.stdin.resume()
if (mode === 'run') await run()
else if (mode === 'drain') await drain()
else {
  console.error(`unknown mode ${mode}`)
  process.exit(2)
}
// stdin (read above) would keep the process up.
process.exit()
