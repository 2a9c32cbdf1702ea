import { HttpClient } from '../../electron/services/clients/http-client'
import type { SiteConnection } from '../../electron/services/clients/connect'
import { TokenProvider } from '../../electron/services/clients/token-provider'

// Apart from paired-kiosk.ts (which loads the engine and vitest): child processes and the bench load only this.

/** The site as a kiosk's services reach it: an HTTP client with the kiosk's timeouts and a token that does not expire in a test. */
export function siteConnection(baseUrl: string, token: string, timeouts: { connectTimeoutMs: number; requestTimeoutMs: number }, Client: typeof HttpClient = HttpClient): SiteConnection {
  return {
    http: new Client({ baseUrl, name: 'The site', ...timeouts }),
    tokens: new TokenProvider(async () => ({ token, expiresInSeconds: 3600 })),
  }
}
