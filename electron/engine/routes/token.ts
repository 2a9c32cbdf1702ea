import { tokenParams } from '../../shared/api-requests'
import { tokenErrorRecord, tokenRecord } from '../../shared/api-records'
import { clientAuthRefusal, createClientAuth } from '../auth/client-auth'
import { basicCredentials } from '../auth/guard'
import type { EngineContext } from '../context'
import type { HttpLimits } from '../http/limits'
import { createTarpit } from '../http/tarpit'
import type { EngineApp } from '../http/zod-provider'
import { SCOPE_TENANT_ADMIN } from '../../shared/api-requests'

/**
 * POST /v2/oauth2/oauth/token — OAuth2 client credentials (reference §4.1, §5). grant_type and
 * scope come from the query (as the reference sends them) or the form body; errors follow RFC 6749.
 */
export const TOKEN_PATH = '/v2/oauth2/oauth/token'

export function tokenRoutes(app: EngineApp, ctx: EngineContext, limits: Pick<HttpLimits, 'tarpitMs' | 'maxTarpitted'>): void {
  // One per engine: its back-off, hashing bound and tarpit cover every token call.
  const clientAuth = createClientAuth(ctx.store.clients, { log: ctx.log.engine })
  const tarpit = createTarpit(limits.maxTarpitted, limits.tarpitMs)
  app.post(
    TOKEN_PATH,
    {
      config: { auth: 'basic' },
      schema: {
        querystring: tokenParams,
        body: tokenParams.nullish(),
        response: { 200: tokenRecord, 400: tokenErrorRecord, 401: tokenErrorRecord, 429: tokenErrorRecord, 503: tokenErrorRecord },
      },
    },
    async (request, reply) => {
      const field = (name: keyof typeof request.query) => request.query[name] ?? request.body?.[name]
      const credentials = basicCredentials(request.headers.authorization)
      const auth = await clientAuth.authenticate(credentials, request.ip)
      if (!auth.ok) {
        if (auth.status === 401) request.log.info('token refused: bad client credentials') // not the id given: it may be anything a person typed
        if (auth.status === 429) await tarpit.hold(reply)
        const refusal = clientAuthRefusal(auth)
        return reply.code(refusal.status).headers(refusal.headers).send(refusal.body)
      }
      const { scopes } = auth
      if (field('grant_type') !== 'client_credentials') {
        return reply.code(400).send({ error: 'unsupported_grant_type', error_description: 'grant_type must be client_credentials.' })
      }
      const requested = (field('scope') ?? SCOPE_TENANT_ADMIN).split(' ').filter(Boolean)
      if (requested.length === 0 || !requested.every((s) => scopes.includes(s))) {
        return reply.code(400).send({ error: 'invalid_scope', error_description: `This client may request: ${scopes.join(' ')}.` })
      }
      const { token, expiresIn } = await ctx.tokens.issue({ clientId: auth.clientId, scopes: requested })
      request.log.info(`token issued to client ${auth.clientId}`)
      return reply
        .header('Cache-Control', 'no-store')
        .header('Pragma', 'no-cache')
        .send({ access_token: token, token_type: 'bearer', expires_in: expiresIn, scope: requested.join(' ') })
    },
  )
}
