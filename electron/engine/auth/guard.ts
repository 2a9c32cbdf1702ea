import type { FastifyRequest } from 'fastify'
import { HttpError } from '../http/errors'
import { TokenError, type TokenClaims, type TokenService } from './tokens'

/** Verifies the bearer token of a request; 401 without a valid one, 403 without the scope. */
export async function requireBearer(request: FastifyRequest, tokens: TokenService, scope?: string): Promise<TokenClaims> {
  const header = request.headers.authorization
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null
  if (!match) throw new HttpError(401, 'A bearer token is required (Authorization: Bearer <token>).')
  let claims: TokenClaims
  try {
    claims = await tokens.verify(match[1]!)
  } catch (error) {
    if (error instanceof TokenError) throw new HttpError(401, error.message)
    throw error
  }
  if (scope && !claims.scopes.includes(scope)) throw new HttpError(403, `The token lacks the scope ${scope}.`)
  return claims
}

/** Client id and secret from HTTP Basic credentials, or null when absent or malformed. */
export function basicCredentials(header: string | undefined): { clientId: string; secret: string } | null {
  const match = header ? /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header) : null
  if (!match) return null
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon <= 0) return null
  // RFC 6749 §2.3.1: client credentials are form-urlencoded before Basic encoding.
  try {
    return { clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')), secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')) }
  } catch {
    return null
  }
}
