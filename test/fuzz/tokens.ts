import { randomBytes } from 'node:crypto'
import { SignJWT } from 'jose'
import type { TestEngine } from '../support/engine'
import { basic, TEST_CLIENT } from '../support/engine'

/** A named Authorization header (or none): the name goes into the report. */
export interface AuthVariant {
  name: string
  header: string | undefined
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

async function signed(key: Uint8Array, claims: Record<string, unknown>, expiresAt: number, kid?: string): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', ...(kid ? { kid } : {}) })
    .setIssuer('identity-kiosk-engine')
    .setSubject(TEST_CLIENT.id)
    .setIssuedAt(expiresAt - 3600)
    .setExpirationTime(expiresAt)
    .sign(key)
}

/**
 * The engine's signing key, read from its database, to sign tokens that are right in every way but
 * one (expired, scope missing). Null if the engine keeps its key elsewhere: those variants are then
 * signed with a random key and named so.
 */
async function engineKey(t: TestEngine): Promise<{ kid: string; secret: Buffer } | null> {
  try {
    return (await t.engine.ctx.store.db.get<{ kid: string; secret: Buffer }>('SELECT kid, secret FROM signing_keys ORDER BY created DESC LIMIT 1')) ?? null
  } catch {
    return null
  }
}

/** Valid and hostile Authorization headers, for bearer routes and for the Basic-authenticated token call. */
export async function authVariants(t: TestEngine): Promise<{ valid: AuthVariant; bearer: AuthVariant[]; basic: AuthVariant[] }> {
  const token = await t.token()
  const now = Math.floor(Date.now() / 1000)
  const key = await engineKey(t)
  const realKey = key?.secret ?? randomBytes(32)
  const keyNote = key ? '' : ' (engine key unreadable: random key)'
  const [, payload] = token.split('.')
  const bearer: AuthVariant[] = [
    { name: 'no Authorization', header: undefined },
    { name: 'empty Authorization', header: '' },
    { name: 'Bearer without token', header: 'Bearer ' },
    { name: 'garbage token', header: 'Bearer garbage' },
    { name: 'three empty parts', header: 'Bearer ..' },
    { name: 'token twice', header: `Bearer ${token} ${token}` },
    { name: 'alg:none, unsigned', header: `Bearer ${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.` },
    { name: 'alg:none, signature kept', header: `Bearer ${b64url({ alg: 'none', typ: 'JWT' })}.${token.split('.').slice(1).join('.')}` },
    { name: 'signed with another key', header: `Bearer ${await signed(randomBytes(32), { scope: 'SCOPE_TENANT_ADMIN' }, now + 3600)}` },
    { name: `expired${keyNote}`, header: `Bearer ${await signed(realKey, { scope: 'SCOPE_TENANT_ADMIN' }, now - 60, key?.kid)}` },
    { name: `no scope claim${keyNote}`, header: `Bearer ${await signed(realKey, {}, now + 3600, key?.kid)}` },
    { name: `other scope only${keyNote}`, header: `Bearer ${await signed(realKey, { scope: 'SCOPE_OTHER' }, now + 3600, key?.kid)}` },
    { name: `scope is an array${keyNote}`, header: `Bearer ${await signed(realKey, { scope: ['SCOPE_TENANT_ADMIN'] }, now + 3600, key?.kid)}` },
    { name: 'tampered payload', header: `Bearer ${token.split('.')[0]}.${b64url({ sub: 'admin', scope: 'SCOPE_TENANT_ADMIN', exp: now + 3600 })}.${token.split('.')[2]}` },
    { name: 'Basic where Bearer is due', header: basic(TEST_CLIENT.id, TEST_CLIENT.secret) },
    { name: '8 KB token', header: `Bearer ${'a'.repeat(8192)}` },
  ]
  const basicVariants: AuthVariant[] = [
    { name: 'no Authorization', header: undefined },
    { name: 'wrong secret', header: basic(TEST_CLIENT.id, 'wrong-secret') },
    { name: 'unknown client', header: basic('nobody', 'x') },
    { name: 'no colon', header: `Basic ${Buffer.from('kiosk-test').toString('base64')}` },
    { name: 'not base64', header: 'Basic %%%%' },
    { name: 'bad percent-encoding', header: `Basic ${Buffer.from('%zz:%zz').toString('base64')}` },
    { name: 'empty', header: 'Basic ' },
    { name: '__proto__ client', header: basic('__proto__', 'constructor') },
    { name: 'Bearer where Basic is due', header: `Bearer ${token}` },
    { name: 'long secret', header: basic(TEST_CLIENT.id, 'x'.repeat(6000)) },
  ]
  return { valid: { name: 'valid', header: `Bearer ${token}` }, bearer, basic: basicVariants }
}
