/**
 * A kiosk process as far as the outbox is concerned, for the SIGKILL tests
 * (test/integration/outbox-faults.test.ts). Run with `node --import tsx`:
 *
 *   outbox-child.ts enqueue <dir> <prefix> <count>   queues <count> enrollments, printing each id once committed
 *   outbox-child.ts drain <dir> <engineUrl>           drains the outbox against the engine, then prints "drained"
 *   outbox-child.ts slow <dir> <deliverMs> <claimMs> <expected>
 *                                                     runs the sender with a deliver that takes <deliverMs> (each claim
 *                                                     <claimMs>), printing "sending <templateContext>" as each starts,
 *                                                     until <expected> items are delivered by any process; then "done"
 *
 * The outbox key comes from OUTBOX_TEST_KEY (hex). Every mode prints "ready" once the outbox is
 * open, so the parent can kill them at a random moment after that.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { openOutbox } from '../../electron/services/outbox'
import { backendProbe } from '../../electron/services/outbox/probe'
import { enrollVisitor } from '../../electron/services/workflows/enroll-visitor'
import { testBackend } from './backend'

const [mode, dir, arg1, arg2, arg3] = process.argv.slice(2)
const key = Buffer.from(process.env.OUTBOX_TEST_KEY ?? '', 'hex')
const fixtures = join(new URL('../..', import.meta.url).pathname, 'test/fixtures/generated')
const KILL_SAMPLES = ['person-a1.jpg', 'person-b.jpg', 'person-c.jpg', 'person-d.jpg', 'person-e.jpg']

const timing = { backoff: { baseMs: 20, capMs: 200 }, offlineProbeMs: 100, onlineProbeMs: 5_000, probeTimeoutMs: 2_000, claimMs: 3_000 }
const say = (line: string) => process.stdout.write(`${line}\n`)

async function enqueue(prefix: string, count: number): Promise<void> {
  const samples = KILL_SAMPLES.map((name) => readFileSync(join(fixtures, name)).toString('base64'))
  const outbox = await openOutbox({ dir: dir!, key, deliver: async () => {}, probe: async () => false, timing })
  say('ready')
  for (let i = 0; i < count; i++) {
    const item = await outbox.enqueue({ userId: `${prefix}-${i}@kill.example`, templateType: 'Face:HumanFaceRes', samples: [samples[i % samples.length]!] })
    // Printed only after the transaction committed: the parent may rely on every printed id.
    say(`queued ${item.id}`)
    // Spread the enqueues out so a kill lands between, during and after them.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 15))
  }
  await outbox.close()
  say('done')
}

async function drain(url: string): Promise<void> {
  const backend = testBackend(url, { requestTimeoutMs: 10_000 })
  const outbox = await openOutbox({ dir: dir!, key, deliver: (item) => enrollVisitor(backend, item), probe: backendProbe(backend), timing })
  outbox.onChange((state) => {
    for (const item of state.items) if (item.state === 'in-flight') say(`in-flight ${item.id}`)
  })
  say('ready')
  // Bounded: at most 20 passes; each pass ends when nothing is due.
  for (let pass = 0; pass < 20; pass++) {
    const state = await outbox.drainNow()
    if (state.counts.queued === 0 && state.counts.inFlight === 0) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const { counts } = await outbox.state()
  await outbox.close()
  await backend.close()
  say(`drained ${JSON.stringify(counts)}`)
}

async function slow(deliverMs: number, claimMs: number, expected: number): Promise<void> {
  const outbox = await openOutbox({
    dir: dir!,
    key,
    // Honours its signal, as the HTTP clients do: a send the runner abandoned does not go on.
    deliver: async (item, signal) => {
      say(`sending ${item.templateContext}`)
      await sleep(deliverMs, undefined, { signal })
    },
    probe: async () => true,
    timing: { ...timing, claimMs, pollMs: 50 },
  })
  outbox.start()
  say('ready')
  const deadline = Date.now() + 60_000
  let counts = (await outbox.state()).counts
  while (Date.now() < deadline && !(counts.delivered >= expected && counts.queued === 0 && counts.inFlight === 0)) {
    await sleep(50)
    counts = (await outbox.state()).counts
  }
  await outbox.close()
  say(`done ${JSON.stringify(counts)}`)
}

if (key.length !== 32) {
  console.error('OUTBOX_TEST_KEY must be 32 bytes, hex')
  process.exit(2)
}
if (mode === 'enqueue') await enqueue(arg1!, Number(arg2))
else if (mode === 'drain') await drain(arg1!)
else if (mode === 'slow') await slow(Number(arg1), Number(arg2), Number(arg3))
else {
  console.error(`unknown mode ${mode}`)
  process.exit(2)
}
