import { request, type Dispatcher } from 'undici'
import { SCOPE_TENANT_ADMIN } from '../../electron/shared/api-requests'
import { FRONTDESK_PREFIX, SCOPE_FRONTDESK_KIOSK } from '../../electron/shared/frontdesk-api'
import { basic, type TestEngine } from './engine'
import { replyOf } from './site'

/** A kiosk paired with a test engine's front desk, as its services would be: its id and a token of its own client. */
export interface PairedKiosk {
  kioskId: string
  token: string
}

export const fd = (path: string) => `${FRONTDESK_PREFIX}${path}`

/** POSTs JSON (with a bearer token when given) and reads the reply. */
export async function post(url: string, path: string, body: unknown, token?: string): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (token) headers.authorization = `Bearer ${token}`
  return replyOf(await request(`${url}${path}`, { method: 'POST' as Dispatcher.HttpMethod, headers, body: JSON.stringify(body) }))
}

/** Pairs a kiosk named `name` with a code the site makes, and fetches its client's token. */
export async function pair(engine: TestEngine, name: string): Promise<PairedKiosk> {
  const code = (await engine.engine.ctx.frontDesk.createPairingCode('test')).code
  const paired = await post(engine.url, fd('/pair'), { code, name })
  if (paired.status !== 200) throw new Error(`pairing ${name}: ${paired.status} ${JSON.stringify(paired.body)}`)
  const reply = await request(`${engine.url}/v2/oauth2/oauth/token?grant_type=client_credentials&scope=${encodeURIComponent(`${SCOPE_TENANT_ADMIN} ${SCOPE_FRONTDESK_KIOSK}`)}`, {
    method: 'POST',
    headers: { authorization: basic(paired.body.clientId, paired.body.clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
  })
  return { kioskId: paired.body.kioskId, token: ((await reply.body.json()) as { access_token: string }).access_token }
}
