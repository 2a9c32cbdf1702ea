import { BioEngineClient } from './bioengine'
import type { BasicAuthEncoding } from '../../shared/settings'
import { HttpClient } from './http-client'
import { PersonServerClient, type ClientCredentials } from './person-server'
import { TokenProvider, type IssuedToken } from './token-provider'

export interface ConnectOptions {
  personServerUrl: string
  bioEngineUrl: string
  credentials: () => Promise<ClientCredentials>
  /** A JWT stored for a remote BioEngine; without it the person server's token is used. */
  bioEngineJwt?: () => Promise<IssuedToken>
  connectTimeoutMs?: number | undefined
  requestTimeoutMs?: number | undefined
  basicAuthEncoding?: BasicAuthEncoding | undefined
  /** The token's scopes (space-separated), when not the person server's alone. */
  scope?: string | undefined
  /** A site's base URL: its front desk is reached there too, with the person server's token. */
  siteUrl?: string | undefined
}

/** A site's front desk: where, and the token its calls carry (the person server's: one token for the whole site). */
export interface SiteConnection {
  http: HttpClient
  tokens: TokenProvider
}

export interface Clients {
  persons: PersonServerClient
  bio: BioEngineClient
  /** Only when connected to a site. */
  site: SiteConnection | null
  close(): Promise<void>
}

/** Clients for both servers (and a site's front desk), sharing the person server's token unless the BioEngine has its own JWT. */
export function connect(options: ConnectOptions): Clients {
  const timeouts = { connectTimeoutMs: options.connectTimeoutMs, requestTimeoutMs: options.requestTimeoutMs }
  const persons = new PersonServerClient(options.personServerUrl, options.credentials, { ...timeouts, basicAuthEncoding: options.basicAuthEncoding, scope: options.scope })
  const bioTokens = options.bioEngineJwt ? new TokenProvider(options.bioEngineJwt) : persons.tokens
  const bio = new BioEngineClient(options.bioEngineUrl, bioTokens, timeouts)
  const site = options.siteUrl ? { http: new HttpClient({ baseUrl: options.siteUrl, name: 'The site', ...timeouts }), tokens: persons.tokens } : null
  return {
    persons,
    bio,
    site,
    close: async () => {
      await Promise.all([persons.close(), bio.close(), site?.http.close()])
    },
  }
}
