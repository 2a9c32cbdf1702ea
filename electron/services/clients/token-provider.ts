/** A bearer token and how long it lives (null: the server did not say). */
export interface IssuedToken {
  token: string
  expiresInSeconds: number | null
}

export interface TokenProviderOptions {
  now?: () => number
  /** Refresh this long before expiry, so a token never expires on the way to the server. */
  skewMs?: number
  /** A lifetime for tokens issued without one; a 401 before then still renews it. */
  unknownLifetimeMs?: number
  /**
   * True for an error meaning "these credentials are refused". Such a refusal is answered again
   * without asking the server for `refusalHoldMs`: probes and retries must not read as a stream
   * of failed sign-ins (which servers log, rate-limit or lock out).
   */
  isRefusal?: (error: unknown) => boolean
  refusalHoldMs?: number
}

/**
 * Caches a client-credentials token until shortly before it expires, with one refresh in flight
 * at a time however many calls need a token at once. `invalidate` drops a token a server refused.
 */
export class TokenProvider {
  private cached: { token: string; expiresAt: number } | null = null
  private inFlight: Promise<string> | null = null
  private refused: { error: unknown; until: number } | null = null
  private readonly now: () => number

  constructor(
    private readonly issue: () => Promise<IssuedToken>,
    private readonly options: TokenProviderOptions = {},
  ) {
    this.now = options.now ?? Date.now
  }

  async get(): Promise<string> {
    const now = this.now()
    if (this.cached && now < this.cached.expiresAt) return this.cached.token
    if (this.refused && now < this.refused.until) throw this.refused.error
    this.inFlight ??= this.issue()
      .then(({ token, expiresInSeconds }) => {
        const lifetime = expiresInSeconds === null ? (this.options.unknownLifetimeMs ?? 3_600_000) : Math.max(0, expiresInSeconds * 1000 - (this.options.skewMs ?? 60_000))
        this.cached = { token, expiresAt: this.now() + lifetime }
        this.refused = null
        return token
      })
      .catch((error: unknown) => {
        if (this.options.isRefusal?.(error)) this.refused = { error, until: this.now() + (this.options.refusalHoldMs ?? 300_000) }
        throw error
      })
      .finally(() => {
        this.inFlight = null
      })
    return this.inFlight
  }

  invalidate(token: string): void {
    if (this.cached?.token === token) this.cached = null
  }
}

/** Runs a call with a token; when the server answers 401, drops the token and tries once more. */
export async function withToken<T>(tokens: TokenProvider, call: (token: string) => Promise<T>, isUnauthorized: (error: unknown) => boolean): Promise<T> {
  const token = await tokens.get()
  try {
    return await call(token)
  } catch (error) {
    if (!isUnauthorized(error)) throw error
    tokens.invalidate(token)
    return call(await tokens.get())
  }
}
