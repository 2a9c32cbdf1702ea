import type pg from 'pg'
import { parseIntoClientConfig } from 'pg-connection-string'
import pgpass from 'pgpass'

/**
 * A connection's settings from its URL, with the password asked for when connecting. (pg would
 * read the password file itself, but is dropping that; and a URL's empty password would win over
 * a password function given beside it, so the URL is parsed here.)
 */
export function connectionConfig(url: string): pg.ClientConfig {
  const { password: _none, ...config } = parseIntoClientConfig(url)
  return { ...config, password: passwordFor(url) }
}

/**
 * The password for connections to `url`, as libpq finds one: PGPASSWORD, else the line of the
 * password file (PGPASSFILE, or ~/.pgpass; ignored unless 0600) that matches the connection; none
 * without either (pg then connects without one). pg asks for it at every new connection, so a
 * rotated password file is read again. The URL itself never carries a password (cli-args.ts).
 */
function passwordFor(url: string): () => Promise<string> {
  const parsed = new URL(url)
  const connection = {
    host: decodeURIComponent(parsed.hostname) || 'localhost',
    port: parsed.port || '5432',
    database: decodeURIComponent(parsed.pathname.slice(1)) || undefined,
    user: decodeURIComponent(parsed.username) || undefined,
  }
  // pg takes an undefined password as none at all; its types only know strings.
  return () => (process.env.PGPASSWORD ? Promise.resolve(process.env.PGPASSWORD) : new Promise<string | undefined>((resolve) => pgpass(connection, resolve))) as Promise<string>
}
