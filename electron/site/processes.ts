import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'

const SETPRIV = '/usr/bin/setpriv'

/**
 * The command line that runs `command` so that it gets `signal` when its parent (this process)
 * dies, however it dies, even SIGKILL: util-linux's setpriv sets the kernel's parent-death signal
 * and execs it, so the pid stays the same. Where setpriv is missing (not Linux), the command as is.
 * `setprivArgs` adds setpriv options (e.g. to drop root) before the command.
 */
export function diesWithParent(signal: NodeJS.Signals, command: string, args: string[], setprivArgs: string[] = []): [string, string[]] {
  if (!existsSync(SETPRIV)) return [command, args]
  return [SETPRIV, [...setprivArgs, '--pdeathsig', signal.replace(/^SIG/, ''), '--', command, ...args]]
}

/** True while `pid` names a process (EPERM: it exists but belongs to someone else). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Resolves once the child has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => child.once('exit', () => resolve()))
}

/** Resolves true if the child exits within `ms`, false otherwise. */
export async function exitsWithin(child: ChildProcess, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)))
  const done = await Promise.race([exited(child).then(() => true as const), timeout])
  clearTimeout(timer)
  return done
}

/** Sends `signal`, then SIGKILL if the child is still there after `graceMs`; resolves once it is gone. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill(signal)
  if (await exitsWithin(child, graceMs)) return
  child.kill('SIGKILL')
  await exited(child)
}

export interface RunResult {
  code: number | null
  output: string
}

/** Runs a command to its end, stdin from `input`, stdout and stderr collected together. */
export function run(command: string, args: string[], options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] })
    const chunks: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, output: Buffer.concat(chunks).toString('utf8') }))
    // A command may exit without reading its input (pg_ctl, initdb on a refusal): writing to its
    // closed pipe fails with EPIPE, and its exit code and output already say what happened.
    child.stdin.on('error', () => undefined)
    child.stdin.end(options.input ?? '')
  })
}

/** A port free on 127.0.0.1 right now (another process may still take it before we bind it). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

/** Resolves after `ms` (for back-off between restarts, never as a wait for a state). */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/**
 * True while `pid` names a process that has not ended: unlike alive(), a zombie (dead, not yet
 * reaped, e.g. an orphaned postmaster handed to a PID 1 that never reaps) counts as gone.
 */
export function running(pid: number): boolean {
  if (!alive(pid)) return false
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    // No /proc (not Linux): as alive() says.
    return true
  }
}
