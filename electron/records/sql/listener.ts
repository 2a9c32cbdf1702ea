import pg from 'pg'
import { connectionConfig } from './password'

export interface Listener {
  close(): Promise<void>
}

/**
 * LISTENs on a channel over its own connection (a pooled one would be handed to others). When the
 * connection is lost it says so and reconnects, backing off to 5 s, and says so again once it is
 * listening: notifications sent meanwhile are never replayed, so the caller catches up then.
 */
export function listen(
  url: string,
  channel: string,
  handlers: { notified(payload?: string): void; connected(up: boolean): void },
  /** How the connection shows in pg_stat_activity. */
  applicationName = 'identity-kiosk-engine listener',
): Listener {
  let client: pg.Client | null = null
  let closed = false
  let delay = 250
  let timer: NodeJS.Timeout | undefined

  const retry = () => {
    if (closed) return
    handlers.connected(false)
    timer = setTimeout(() => void open(), delay)
    delay = Math.min(5000, delay * 2)
  }
  const open = async () => {
    const next = new pg.Client({ ...connectionConfig(url), connectionTimeoutMillis: 5000, application_name: applicationName })
    client = next
    let failed = false
    const fail = () => {
      if (failed || client !== next) return
      failed = true
      client = null
      void next.end().catch(() => {})
      retry()
    }
    next.on('error', fail)
    next.on('end', fail)
    next.on('notification', (message) => handlers.notified(message.payload))
    try {
      await next.connect()
      await next.query(`LISTEN ${channel}`)
    } catch {
      fail()
      return
    }
    if (closed) return void next.end().catch(() => {})
    delay = 250
    handlers.connected(true)
  }
  void open()
  return {
    async close() {
      closed = true
      clearTimeout(timer)
      const last = client
      client = null
      await last?.end().catch(() => {})
    },
  }
}
