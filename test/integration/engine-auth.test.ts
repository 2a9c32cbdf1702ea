import { SignJWT } from 'jose'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTokenService, TOKEN_ISSUER } from '../../electron/engine/auth/tokens'
import { signingKey } from '../../electron/engine/store/signing-keys'
import { basic, startTestEngine, TEST_CLIENT, type TestEngine } from '../support/engine'

// The token call and the bearer rules (reference §4.1, §5) over real HTTP.
describe('embedded engine auth', () => {
  let t: TestEngine
  beforeAll(async () => {
    t = await startTestEngine([])
  })
  afterAll(() => t.close())

  const tokenCall = (query: string, authorization?: string, body = '') =>
    request(`${t.url}/v2/oauth2/oauth/token${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization ? { authorization } : {}) },
      body,
    })

  it('issues a bearer JWT for the client credentials grant', async () => {
    const reply = await tokenCall('?scope=SCOPE_TENANT_ADMIN&grant_type=client_credentials', basic(TEST_CLIENT.id, TEST_CLIENT.secret))
    expect(reply.statusCode).toBe(200)
    expect(reply.headers['cache-control']).toBe('no-store')
    const body = (await reply.body.json()) as Record<string, unknown>
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'SCOPE_TENANT_ADMIN' })
    const [header, payload] = String(body.access_token).split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()))
    expect(header).toMatchObject({ alg: 'HS256', typ: 'JWT' })
    expect(payload).toMatchObject({ iss: TOKEN_ISSUER, sub: TEST_CLIENT.id, scope: 'SCOPE_TENANT_ADMIN' })
    expect(payload.exp - payload.iat).toBe(3600)
  })

  it('also takes grant_type and scope from the form body', async () => {
    const reply = await tokenCall('', basic(TEST_CLIENT.id, TEST_CLIENT.secret), 'grant_type=client_credentials&scope=SCOPE_TENANT_ADMIN')
    expect(reply.statusCode).toBe(200)
    await reply.body.dump()
  })

  it('refuses wrong or missing client credentials with 401', async () => {
    for (const authorization of [undefined, basic(TEST_CLIENT.id, 'wrong'), basic('nobody', TEST_CLIENT.secret), 'Basic !!!', `Bearer x`]) {
      const reply = await tokenCall('?scope=SCOPE_TENANT_ADMIN&grant_type=client_credentials', authorization)
      expect(reply.statusCode).toBe(401)
      expect(await reply.body.json()).toMatchObject({ error: 'invalid_client' })
    }
  })

  it('refuses another grant type or scope with 400', async () => {
    const grant = await tokenCall('?scope=SCOPE_TENANT_ADMIN&grant_type=password', basic(TEST_CLIENT.id, TEST_CLIENT.secret))
    expect(grant.statusCode).toBe(400)
    expect(await grant.body.json()).toMatchObject({ error: 'unsupported_grant_type' })
    const scope = await tokenCall('?scope=SCOPE_ROOT&grant_type=client_credentials', basic(TEST_CLIENT.id, TEST_CLIENT.secret))
    expect(scope.statusCode).toBe(400)
    expect(await scope.body.json()).toMatchObject({ error: 'invalid_scope' })
  })

  it('requires a valid bearer token on every person-server and BioEngine call but /match', async () => {
    const foreignKey = new TextEncoder().encode('a-different-key-a-different-key-!!')
    const forged = await new SignJWT({ scope: 'SCOPE_TENANT_ADMIN' }).setProtectedHeader({ alg: 'HS256' }).setIssuer(TOKEN_ISSUER).setSubject('x').setExpirationTime('1h').sign(foreignKey)
    const expired = await createTokenService(await signingKey(t.engine.ctx.store.db), -10).issue({ clientId: TEST_CLIENT.id, scopes: ['SCOPE_TENANT_ADMIN'] })
    const noScope = await createTokenService(await signingKey(t.engine.ctx.store.db)).issue({ clientId: TEST_CLIENT.id, scopes: ['SCOPE_OTHER'] })

    const personPath = '/v2/gmiserver/person'
    const bioPath = '/bioengine/template-types'
    for (const path of [personPath, bioPath]) {
      for (const authorization of ['', 'Bearer', `Bearer ${forged}`, `Bearer ${expired.token}`, 'Basic abc']) {
        const reply = await t.call('GET', path, undefined, { authorization })
        expect(reply.status, `${path} with "${authorization.slice(0, 12)}"`).toBe(401)
        expect(reply.headers['www-authenticate']).toBe('Bearer')
      }
    }
    expect((await t.call('GET', personPath, undefined, { authorization: '' })).body).toMatchObject({ status: 401, error: 'Unauthorized' })
    expect((await t.call('GET', bioPath, undefined, { authorization: '' })).body).toMatchObject({ code: 401, message: expect.any(String) })
    expect((await t.call('GET', `${personPath}`, undefined, { authorization: `Bearer ${expired.token}` })).body.message).toMatch(/expired/)

    // The person server needs SCOPE_TENANT_ADMIN; the BioEngine accepts any token of this issuer.
    expect((await t.call('GET', personPath, undefined, { authorization: `Bearer ${noScope.token}` })).status).toBe(403)
    expect((await t.call('GET', bioPath, undefined, { authorization: `Bearer ${noScope.token}` })).status).toBe(200)

    // Simple Face Match needs no token: without one it gets past auth to input checks.
    const match = await t.call('POST', '/bioengine/match', undefined, { authorization: '' })
    expect(match.status).toBe(400)
  })
})
