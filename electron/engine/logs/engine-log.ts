import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs'
import { join } from 'node:path'
import pino, { type Logger } from 'pino'

export const LOG_FILES = { engine: 'engine.log', plugins: 'plugins.log' } as const
const MAX_LOG_BYTES = 5 * 1024 * 1024

export interface EngineLog {
  readonly dir: string
  /** The engine's logger (Fastify's own, one child per request with its id), into engine.log. */
  readonly logger: Logger
  /** An event in words, into engine.log. */
  engine(line: string): void
  /** An event of the face plugins, into plugins.log. */
  plugins(line: string): void
}

/**
 * JSON lines (pino) in <data>/logs, one rotation each (.1) past 5 MB. Callers log events, route
 * patterns and ids the engine made, never a path's values, request bodies, tokens or credentials
 * (test/integration/logs-no-personal-data.test.ts). The folder is made 0700 and the files 0600 (a
 * rotation keeps its file's mode): client ids and paths are nobody else's business.
 */
export function createEngineLog(dataDir: string, level = 'info'): EngineLog {
  const dir = join(dataDir, 'logs')
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const file = (name: string) => {
    const path = join(dir, name)
    return {
      write(line: string): void {
        try {
          if ((statSync(path, { throwIfNoEntry: false })?.size ?? 0) > MAX_LOG_BYTES) renameSync(path, `${path}.1`)
          appendFileSync(path, line, { mode: 0o600 })
        } catch {
          // A full disk must not take the engine down with it.
        }
      },
    }
  }
  // Written as they come (appendFileSync), so a line is on disk before the engine can be killed.
  // ENGINE_LOG_LEVEL (cli.ts): debug adds the health probes; a level pino does not know is info.
  const logger = pino({ level: level in pino.levels.values ? level : 'info', base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, file(LOG_FILES.engine))
  const plugins = pino({ base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, file(LOG_FILES.plugins))
  return { dir, logger, engine: (line) => logger.info(line), plugins: (line) => plugins.info(line) }
}
