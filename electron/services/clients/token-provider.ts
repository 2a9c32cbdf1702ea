/** A bearer token and how long it lives. */
export interface IssuedToken {
  token: string
  expiresInSeconds: number
}

/**
 * Caches a client-credentials token until shortly before it expires, with one refresh in flight
 * at a time however many calls need a token at once. `invalidate` drops a token a server refused.
 */
export class TokenProvider {
  private cached: { token: string; expiresAt: number } | null = null
  private inFlight: Promise<string> | null = null

  constructor(
    private readonly issue: () => Promise<IssuedToken>,
    private readonly now: () => number = Date.now,
    /** Refresh this long before expiry, so a token never expires on the way to the server. */
    private readonly skewMs = 60_000,
  ) {}

  async get(): Promise<string> {
    if (this.cached && this.now() < this.cached.expiresAt) return this.cached.token
    this.inFlight ??= this.issue()
      .then(({ token, expiresInSeconds }) => {
        const lifetime = Math.max(0, expiresInSeconds * 1000 - this.skewMs)
        this.cached = { token, expiresAt: this.now() + lifetime }
        return token
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
