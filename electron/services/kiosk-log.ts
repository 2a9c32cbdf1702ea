import pino from 'pino'

/**
 * The kiosk's own log: JSON lines (pino, as the engine's) on stderr, which the shell keeps (the
 * terminal, a service manager's journal). Written as they come, so a line survives a crash.
 * Callers log events and ids, never what a person or staff typed (dispatch.ts logs codes and
 * messages, and a server call's request id, which the site's log names too).
 */
export function kioskLog(): (line: string) => void {
  const logger = pino({ base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ dest: 2, sync: true }))
  return (line) => logger.info(line)
}
