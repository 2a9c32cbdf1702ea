import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { freeLoopbackPort, running } from '../../../electron/site/processes'
import { projectRoot, tsxArgs } from '../../support/process'

const ENGINE_LINE = /^engine (\d+) (http:\/\/127\.0\.0\.1:\d+) pid (\d+)$/
const PID_LINE = /^(?:postgres|haproxy|etcd) pid (\d+)$/
/** `--ha`: a node's Patroni and postmaster. */
const NODE_PIDS = /^postgres node \d+ \S+ patroni pid (\d+) postgres pid (\d+) (?:primary|standby)$/
const READY_LINE = /^site ready (https?:\/\/\S+)$/
const STOP_GRACE_MS = 30_000

export interface SiteEngine {
  n: number
  /** The engine's own port, past haproxy. */
  url: string
  pid: number
}

export interface SiteProcess {
  /** The front (haproxy). */
  url: string
  engines: SiteEngine[]
  haproxyPid: number
  /** From spawn to `site ready`. */
  startedMs: number
  /** Every line it wrote so far (stdout and stderr), in order; it grows while the site runs. */
  output: string[]
  /** SIGTERM to the site (SIGKILL after 30 s), then SIGKILL to every pid it printed that is still there. */
  stop(): Promise<void>
}

/**
 * `npm run site` (electron/site/cli.ts, run with tsx as the npm script does) with `engines`
 * engines on `dataDir`, resolved at `site ready`. The site's own stop runs on SIGTERM; whatever
 * it printed (engines, haproxy, postgres) is then made sure of by pid. A failed start is stopped
 * the same way before this rejects, so the caller's finally has nothing left to stop.
 */
export async function startSite(options: { engines: number; dataDir: string; args: string[]; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<SiteProcess> {
  const port = await freeLoopbackPort()
  const [command, args] = tsxArgs('electron/site/cli.ts', ['--engines', String(options.engines), '--port', String(port), '--data', options.dataDir, ...options.args])
  const started = performance.now()
  const child = spawn(command, args, { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'], env: options.env })
  const output: string[] = []
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line))
  const stdout = createInterface({ input: child.stdout! })

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS)
      await exited
      clearTimeout(timer)
    }
    for (const line of output) {
      const match = ENGINE_LINE.exec(line) ?? PID_LINE.exec(line)
      const node = NODE_PIDS.exec(line)
      const pids = node ? [Number(node[1]), Number(node[2])] : match ? [Number(match.at(-1))] : []
      for (const pid of pids) if (running(pid)) process.kill(pid, 'SIGKILL')
    }
  }

  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? 240_000
      const timer = setTimeout(() => reject(new Error(`npm run site: no "site ready" within ${timeoutMs} ms`)), timeoutMs)
      stdout.on('line', (line) => {
        output.push(line)
        const match = READY_LINE.exec(line)
        if (match) {
          clearTimeout(timer)
          resolve(match[1]!)
        }
      })
      void exited.then(() => {
        clearTimeout(timer)
        reject(new Error(`npm run site exited (code ${child.exitCode}, signal ${child.signalCode}) before "site ready"`))
      })
    })
    const startedMs = performance.now() - started
    const engines = output.flatMap((line) => {
      const match = ENGINE_LINE.exec(line)
      return match ? [{ n: Number(match[1]), url: match[2]!, pid: Number(match[3]) }] : []
    })
    const haproxyPid = Number(/^haproxy pid (\d+)$/m.exec(output.join('\n'))?.[1] ?? Number.NaN)
    if (engines.length !== options.engines) throw new Error(`npm run site printed ${engines.length} engine(s), expected ${options.engines}`)
    return { url, engines, haproxyPid, startedMs, output, stop }
  } catch (error) {
    await stop()
    throw new Error(`${(error as Error).message}; its output:\n${output.slice(-40).join('\n')}`)
  }
}

/**
 * CPU time (user + system, every thread) a process has used so far, in ms, from /proc/PID/stat.
 * Its utime and stime are in USER_HZ ticks, 100 a second on Linux.
 */
export function cpuMs(pid: number): number {
  const fields = statFields(pid)
  return fields ? (Number(fields[11]) + Number(fields[12])) * 10 : 0
}

/**
 * CPU time of a process and its children alive now (PostgreSQL: the postmaster and its backends),
 * in ms. A child that exits between two reads takes its time with it: compare over a run in which
 * the children stay (a pool's connections).
 */
export function treeCpuMs(pid: number): number {
  let ms = cpuMs(pid)
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const fields = statFields(Number(entry))
    if (fields && Number(fields[1]) === pid) ms += (Number(fields[11]) + Number(fields[12])) * 10
  }
  return ms
}

/** The fields of /proc/PID/stat after the command name (state first), or null once it is gone. */
function statFields(pid: number): string[] | null {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  // The command name, in parentheses, may hold spaces: count the fields after its closing one.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
}
