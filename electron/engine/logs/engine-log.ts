import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs'
import { join } from 'node:path'

export const LOG_FILES = { engine: 'engine.log', plugins: 'plugins.log' } as const
const MAX_LOG_BYTES = 5 * 1024 * 1024

export interface EngineLog {
  readonly dir: string
  engine(line: string): void
  plugins(line: string): void
}

/**
 * Append-only log files in <data>/logs, one rotation each (.1) past 5 MB. Callers log events,
 * never request bodies, tokens or credentials. The folder is made 0700 and the files 0600 (a
 * rotation keeps its file's mode): client ids and paths are nobody else's business.
 */
export function createEngineLog(dataDir: string): EngineLog {
  const dir = join(dataDir, 'logs')
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const writer = (name: string) => (line: string) => {
    const file = join(dir, name)
    try {
      if ((statSync(file, { throwIfNoEntry: false })?.size ?? 0) > MAX_LOG_BYTES) renameSync(file, `${file}.1`)
      appendFileSync(file, `${new Date().toISOString()} ${line.replace(/[\r\n]+/g, ' ')}\n`, { mode: 0o600 })
    } catch {
      // A full disk must not take the engine down with it.
    }
  }
  return { dir, engine: writer(LOG_FILES.engine), plugins: writer(LOG_FILES.plugins) }
}
