import { createInterface } from 'node:readline'
import { startFlooders, talliesToJson, type FloodChildConfig, type Flooder } from './flood'
import { buildFlooders, FLOOD_KINDS, type FloodKind } from './hostile-flooders'

/**
 * The hostile section's flood clients, in a process of their own (see FloodProcess in flood.ts for
 * why and for the line protocol): argv[2] is a FloodChildConfig as JSON; stdin brings
 * `{"kinds":[...]}` and `stop` per phase; stdout carries `ready`, `flooding` and `tally <json>`.
 * Nothing else goes to stdout. Stdin closing ends a running flood and the process.
 */
const config = JSON.parse(process.argv[2] ?? '') as FloodChildConfig
const unknown = config.kinds.filter((kind) => !(FLOOD_KINDS as readonly string[]).includes(kind))
if (unknown.length > 0) throw new Error(`unknown flood kind(s): ${unknown.join(', ')}`)
const built = new Map<string, Flooder>((await buildFlooders(config, config.kinds)).map((flooder) => [flooder.kind, flooder]))

let running: ReturnType<typeof startFlooders> | undefined
const say = (line: string) => process.stdout.write(`${line}\n`)

const input = createInterface({ input: process.stdin })
// One command at a time, in order: a `stop` must wait for the start before it.
let queue = Promise.resolve()
input.on('line', (line) => {
  queue = queue.then(async () => {
    if (line === 'stop') {
      if (!running) throw new Error('stop without a running flood')
      const tallies = await running.stop()
      running = undefined
      say(`tally ${talliesToJson(tallies)}`)
    } else {
      if (running) throw new Error('a flood is already running')
      const { kinds } = JSON.parse(line) as { kinds: FloodKind[] }
      const flooders = kinds.map((kind) => {
        const flooder = built.get(kind)
        if (!flooder) throw new Error(`flood kind ${kind} was not in the config's kinds`)
        return flooder
      })
      running = startFlooders(config.url, flooders)
      say('flooding')
    }
  })
  // A broken command ends the child with the reason on stderr; the parent reports it.
  queue.catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error))
    process.exit(1)
  })
})
input.on('close', () => {
  void queue.then(async () => {
    await running?.stop()
    process.exit(0)
  })
})
say('ready')
