import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { diesWithParent, run, stopChild } from './processes'
import { RestartBackoff } from './restart-backoff'

export interface HaproxyEvents {
  /** haproxy was started: first start and after each restart. */
  started(pid: number): void
  log(line: string): void
}

/**
 * haproxy in the foreground (`-db`) as the site's child. If it dies, it is logged and started
 * again with the same configuration, so the site's front comes back on its own; the engines and
 * PostgreSQL are untouched meanwhile.
 */
export class SupervisedHaproxy {
  pid = 0
  private child: ChildProcess | undefined
  private stopping = false
  private restartTimer: NodeJS.Timeout | undefined
  private readonly backoff = new RestartBackoff()

  constructor(
    private readonly configFile: string,
    private readonly events: HaproxyEvents,
  ) {}

  /** Refuses a configuration haproxy itself refuses, with haproxy's words. */
  async check(): Promise<void> {
    const result = await run('haproxy', ['-c', '-f', this.configFile]).catch((error: NodeJS.ErrnoException) => {
      throw new Error(error.code === 'ENOENT' ? 'haproxy is not installed (apt-get install haproxy; scripts/setup.sh does)' : error.message)
    })
    if (result.code !== 0) throw new Error(`haproxy refused ${this.configFile}:\n${result.output.trim()}`)
  }

  /** Starts it; resolves with a promise that settles (rejects) if this haproxy exits. */
  start(): { exited: Promise<never> } {
    // Stops (SIGTERM) if the site is killed, rather than holding the site's port for nobody.
    const child = spawn(...diesWithParent('SIGTERM', 'haproxy', ['-f', this.configFile, '-db']), { stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    this.child = child
    this.pid = child.pid ?? 0
    child.once('error', (error) => this.events.log(`haproxy: ${error.message}`))
    const startedAt = Date.now()
    const forward = (line: string) => line.trim() && this.events.log(`haproxy: ${line}`)
    createInterface({ input: child.stdout! }).on('line', forward)
    createInterface({ input: child.stderr! }).on('line', forward)
    const exited = new Promise<never>((_resolve, reject) => {
      child.once('exit', (code, signal) => {
        const how = signal ? `on ${signal}` : `with code ${code}`
        reject(new Error(`haproxy (pid ${child.pid}) exited ${how}`))
        if (this.stopping) return
        this.events.log(`haproxy (pid ${child.pid}) exited ${how}; starting it again`)
        this.restartTimer = setTimeout(() => this.start().exited.catch(() => {}), this.backoff.next(Date.now() - startedAt))
      })
    })
    exited.catch(() => {})
    this.events.started(this.pid)
    return { exited }
  }

  /** Soft stop (SIGUSR1: stop listening, finish requests in flight), SIGKILL after `graceMs`. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true
    clearTimeout(this.restartTimer)
    if (this.child) await stopChild(this.child, 'SIGUSR1', graceMs)
  }
}
