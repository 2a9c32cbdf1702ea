import { randomUUID } from 'node:crypto'
import { errors, jwtVerify, SignJWT } from 'jose'
import type { SigningKey } from '../store/signing-keys'

export const TOKEN_ISSUER = 'identity-kiosk-engine'
export const TOKEN_LIFETIME_SECONDS = 3600

export interface TokenClaims {
  clientId: string
  scopes: string[]
}

export interface TokenService {
  issue(claims: TokenClaims): Promise<{ token: string; expiresIn: number }>
  /** The claims of a valid token; throws TokenError for anything else. */
  verify(token: string): Promise<TokenClaims>
}

export class TokenError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TokenError'
  }
}

/** HS256 JWTs signed with the install's key; the person server and the BioEngine share them. */
export function createTokenService(key: SigningKey, lifetimeSeconds = TOKEN_LIFETIME_SECONDS): TokenService {
  return {
    async issue({ clientId, scopes }) {
      // One clock reading for both, so exp - iat is exactly the lifetime verify holds tokens to.
      const issuedAt = Math.floor(Date.now() / 1000)
      const token = await new SignJWT({ scope: scopes.join(' ') })
        .setProtectedHeader({ alg: 'HS256', kid: key.kid, typ: 'JWT' })
        .setIssuer(TOKEN_ISSUER)
        .setSubject(clientId)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + lifetimeSeconds)
        .setJti(randomUUID())
        .sign(key.secret)
      return { token, expiresIn: lifetimeSeconds }
    },
    async verify(token) {
      try {
        // Every token this engine issues says who, when and until when. One without exp would be
        // good forever; maxTokenAge also refuses an iat in the future.
        const { payload } = await jwtVerify(token, key.secret, {
          issuer: TOKEN_ISSUER,
          algorithms: ['HS256'],
          requiredClaims: ['sub', 'iat', 'exp'],
          maxTokenAge: lifetimeSeconds,
        })
        if (typeof payload.sub !== 'string' || typeof payload.scope !== 'string') throw new TokenError('The token lacks a subject or scope.')
        // Nor does it outlive the lifetime this engine gives its tokens.
        if (payload.exp! - payload.iat! > lifetimeSeconds) throw new TokenError('The token outlives the lifetime this engine issues.')
        return { clientId: payload.sub, scopes: payload.scope.split(' ') }
      } catch (error) {
        if (error instanceof TokenError) throw error
        if (error instanceof errors.JWTExpired) throw new TokenError('The token has expired.')
        throw new TokenError('The token is not valid.')
      }
    },
  }
}
