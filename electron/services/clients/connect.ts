import { BioEngineClient } from './bioengine'
import type { BasicAuthEncoding } from '../../shared/settings'
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
}

/** Clients for both servers, sharing the person server's token unless the BioEngine has its own JWT. */
export function connect(options: ConnectOptions): { persons: PersonServerClient; bio: BioEngineClient; close(): Promise<void> } {
  const timeouts = { connectTimeoutMs: options.connectTimeoutMs, requestTimeoutMs: options.requestTimeoutMs }
  const persons = new PersonServerClient(options.personServerUrl, options.credentials, { ...timeouts, basicAuthEncoding: options.basicAuthEncoding })
  const bioTokens = options.bioEngineJwt ? new TokenProvider(options.bioEngineJwt) : persons.tokens
  const bio = new BioEngineClient(options.bioEngineUrl, bioTokens, timeouts)
  return {
    persons,
    bio,
    close: async () => {
      await Promise.all([persons.close(), bio.close()])
    },
  }
}
