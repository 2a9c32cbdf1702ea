import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { FormData, request, type Dispatcher } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startStandin, TEMPLATE_TYPE, VARIANTS, type Standin, type VariantName } from '../support/vendor-standin'
import { projectRoot } from '../support/process'

const CLIENT = { clientId: 'kiosk-client', clientSecret: 's3cret' }
const TOKEN_PATH = '/v2/oauth2/oauth/token?scope=SCOPE_TENANT_ADMIN&grant_type=client_credentials'
const P = '/v2/gmiserver'
const JSON_HEADERS = { accept: 'application/json', 'content-type': 'application/json' }
const face = (n: number) => readFileSync(join(projectRoot, `node_modules/@vladmandic/face-api/demo/sample${n}.jpg`))

interface Call {
  method?: Dispatcher.HttpMethod
  token?: string
  json?: unknown
  body?: string | Buffer | FormData
  headers?: Record<string, string>
  timeoutMs?: number
}

/** One HTTP exchange, read whole; `json` is undefined when the body is not JSON. */
async function call(url: string, o: Call = {}) {
  const headers = { ...(o.token && { authorization: `Bearer ${o.token}` }), ...(o.json !== undefined && JSON_HEADERS), ...o.headers }
  const body = o.json !== undefined ? JSON.stringify(o.json) : o.body
  const reply = await request(url, { method: o.method ?? 'GET', headers, body, headersTimeout: o.timeoutMs, bodyTimeout: o.timeoutMs })
  const text = await reply.body.text()
  let json: any
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: reply.statusCode, headers: reply.headers, text, json }
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`
const tokenCall = (s: Standin, auth = basic(CLIENT.clientId, CLIENT.clientSecret)) =>
  call(s.personServerUrl + TOKEN_PATH, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' } })

async function signIn(s: Standin) {
  const reply = await tokenCall(s)
  expect(reply.status).toBe(200)
  const token: string = reply.json.access_token
  return {
    token,
    person: (path: string, o: Call = {}) => call(s.personServerUrl + path, { token, ...o }),
    bio: (path: string, o: Call = {}) => call(s.bioEngineUrl + path, { token, ...o }),
  }
}

const matchForm = (image1: Buffer, image2: Buffer) => {
  const form = new FormData()
  form.append('Image1', new Blob([image1], { type: 'image/jpeg' }), 'image1.jpg')
  form.append('Image2', new Blob([image2], { type: 'image/jpeg' }), 'image2.jpg')
  return form
}
const rulesDuring = async (s: Standin, step: () => Promise<unknown>) => {
  const before = s.departures.length
  await step()
  return s.departures.slice(before).map((d) => d.rule)
}
const items = (list: any): any[] => (Array.isArray(list) ? list : list.content)
const idOf = (person: any): string => person.uuid ?? person.id

let photoA: Buffer
let photoB: Buffer
let smallA: Buffer
let smallB: Buffer
beforeAll(async () => {
  photoA = face(1)
  photoB = face(2)
  smallA = await sharp(photoA).resize(480).jpeg().toBuffer()
  smallB = await sharp(photoB).resize(480).jpeg().toBuffer()
})

describe.each(Object.keys(VARIANTS) as VariantName[])('the vendor stand-in, variant %s', (name) => {
  const v = VARIANTS[name]
  const top = v.scoreScale === 'unit' ? 1 : 100

  it('takes a well-formed kiosk session (admin, enroll, verify, identify, match, remove) without a departure', async () => {
    const s = await startStandin({ ...CLIENT, variant: name })
    try {
      const c = await signIn(s)
      // Tenant administration.
      expect((await c.person('/v1/tenant/KIOSK', { method: 'PUT', json: { name: 'Kiosk', code: 'KIOSK', maxIdentities: 100, defaultPostBack: null } })).status).toBe(200)
      const licenseData = { info: 'stand-in', maxIdentities: 100, expireDate: 1_893_456_000_000 }
      expect((await c.person(`${P}/tenant/KIOSK/svrgrp/main/alg/StandinFace`, { method: 'PUT', json: { licenseData } })).status).toBe(200)
      expect((await c.person(`${P}/tenant/KIOSK/svrgrp/main/alg/StandinFace/liveness/BLINK`, { method: 'PUT' })).status).toBe(200)
      expect((await c.person(`${P}/tenant/KIOSK/app/KIOSKAPP`, { method: 'PUT' })).status).toBe(200)
      expect(items((await c.person(`${P}/tenant/KIOSK/app`)).json).map((a) => a.code)).toEqual(['KIOSKAPP'])
      const tenant = (await c.person(`${P}/tenant/KIOSK`)).json
      expect(tenant.algorithms[0]).toMatchObject({ code: 'StandinFace', licenseData, liveness: [v.livenessShape === 'strings' ? 'BLINK' : { code: 'BLINK', name: 'Blink' }] })
      expect('vendorRevision' in tenant).toBe(v.extraFields)

      // Enroll: look up, create, enroll.
      const userId = 'ada@example.com'
      expect((await c.person(`${P}/person?userId=${encodeURIComponent(userId)}`)).status).toBe(404)
      const created = await c.person(`${P}/tenant/KIOSK/person`, { method: 'POST', json: { userId } })
      expect(created.status).toBe(201)
      const uuid = idOf(created.json)
      expect('id' in created.json).toBe(v.personShape !== 'uuid')
      expect('uuid' in created.json).toBe(v.personShape !== 'id')
      const types = (await c.bio('/template-types')).json.templateTypes
      expect(types).toEqual([expect.objectContaining({ templateType: TEMPLATE_TYPE, scoreThreshold: top === 1 ? 0.8 : 48 })])
      const enrolled = await c.bio(`/persons/${uuid}/biometrics`, { method: 'POST', json: { templateType: TEMPLATE_TYPE, templateContext: 'kiosk', samples: [photoA.toString('base64')] } })
      expect(enrolled.status).toBe(201)
      expect(Object.keys(enrolled.json)).toContain(v.enrollReply)
      expect((await c.person(`${P}/tenant/KIOSK/person/${uuid}`)).json.enrollmentStatus).toBe('ENROLLED')
      expect((await c.bio(`/persons/${uuid}/biometrics/${encodeURIComponent(TEMPLATE_TYPE)}`)).json.biometricInfos).toHaveLength(1)

      // Verify, identify, match. A person without templates verifies to the empty placeholder; a bad input fails only its own result.
      const stranger = await c.bio('/persons/nobody/verify', { method: 'POST', json: { verifyInputs: [{ templateType: TEMPLATE_TYPE, sample: photoA.toString('base64') }] } })
      const placeholder: any[] = stranger.json.allMatchResults[0].matchResults
      expect(placeholder.map((result) => Object.keys(result).filter((k) => k !== '_links' && k !== 'vendorRevision'))).toEqual([[]])
      const verify = (photo: Buffer) => c.bio(`/persons/${uuid}/verify`, { method: 'POST', json: { verifyInputs: [{ templateType: TEMPLATE_TYPE, sample: photo.toString('base64') }] } })
      expect((await verify(photoA)).json.allMatchResults[0].matchResults[0]).toMatchObject({ personId: uuid, score: 0.97 * top })
      expect((await verify(photoB)).json.allMatchResults[0].matchResults[0].score).toBe(0.1 * top)
      const identifyInputs = [
        { templateType: TEMPLATE_TYPE, sample: photoA.toString('base64'), maxResults: 5 },
        { templateType: TEMPLATE_TYPE, sample: Buffer.from('not an image').toString('base64') },
      ]
      const identify = await c.bio('/identify', { method: 'POST', json: { identifyInputs } })
      expect(identify.status).toBe(200)
      expect(identify.json.allIdentifyResults[0].identifyResults[0]).toMatchObject({ targetId: 0, identifyMatchResults: [{ personId: uuid, personUUID: uuid }] })
      expect(identify.json.allIdentifyResults[1].identifyResults[0]).toMatchObject({ targetId: 1, identifyMatchResults: [], errorCode: expect.any(Number) })
      const same = (await c.bio('/match', { method: 'POST', body: matchForm(smallA, smallA) })).json
      const other = (await c.bio('/match', { method: 'POST', body: matchForm(smallA, smallB) })).json
      expect(v.faceMatchCase === 'lower' ? [same.pass, same.score, other.pass] : [same.Pass, same.Score, other.Pass]).toEqual([true, 97, false])

      // Search and app user data.
      const page = await c.person(`${P}/tenant/KIOSK/person?find=ADA&sort=%2BuserId&pageSize=10&pageNo=0`)
      expect(items(page.json).map((p) => p.userId)).toEqual([userId])
      expect(Array.isArray(page.json)).toBe(v.listShape === 'array')
      expect((await c.person(`${P}/app/KIOSKAPP/person?userId=${encodeURIComponent(userId)}`)).json).toMatchObject({ userId, appCode: 'KIOSKAPP' })

      // Remove by rule 2: look up, list tenants, leave our tenant, delete templates, delete the person.
      expect(idOf((await c.person(`${P}/person?userId=${encodeURIComponent(userId)}`)).json)).toBe(uuid)
      expect(items((await c.person(`${P}/person/${uuid}/tenant`, { headers: JSON_HEADERS })).json).map((t) => t.code)).toEqual(['KIOSK'])
      expect((await c.person(`${P}/tenant/KIOSK/person/${uuid}`, { method: 'DELETE' })).status).toBe(200)
      expect((await c.bio(`/persons/${uuid}/biometrics`, { method: 'DELETE' })).status).toBe(200)
      expect((await c.person(`${P}/person/${uuid}`, { method: 'DELETE' })).status).toBe(200)

      expect((await c.bio('/createcache', { method: 'POST' })).status).toBe(201)
      expect((await c.bio('/createplugincache/StandinFace', { method: 'POST' })).status).toBe(201)
      const logs = await request(`${s.bioEngineUrl}/logs`, { headers: { authorization: `Bearer ${c.token}` } })
      expect(Buffer.from(await logs.body.arrayBuffer()).subarray(0, 4)).toEqual(Buffer.from('PK\x03\x04', 'latin1'))

      expect(s.departures).toEqual([])
      expect(s.state()).toMatchObject({ persons: [], templates: [] })
    } finally {
      await s.close()
    }
  })
})

describe('the stand-in records each departure from the reference', () => {
  let s: Standin
  let c: Awaited<ReturnType<typeof signIn>>
  beforeAll(async () => {
    s = await startStandin({ ...CLIENT, tenants: ['KIOSK', 'OTHER'] })
    c = await signIn(s)
  })
  afterAll(() => s.close())

  it('a call without a bearer token (but /match), and not for an unknown token', async () => {
    expect(await rulesDuring(s, async () => expect((await call(`${s.personServerUrl}${P}/tenant/KIOSK`)).status).toBe(401))).toEqual(['auth.bearer'])
    expect(await rulesDuring(s, async () => expect((await call(`${s.bioEngineUrl}/template-types`)).status).toBe(401))).toEqual(['auth.bearer'])
    expect(await rulesDuring(s, async () => expect((await call(`${s.bioEngineUrl}/match`, { method: 'POST', body: matchForm(smallA, smallB) })).status).toBe(200))).toEqual([])
    expect(await rulesDuring(s, async () => expect((await call(`${s.personServerUrl}${P}/tenant/KIOSK`, { token: 'stale' })).status).toBe(401))).toEqual([])
  })

  it('token calls off the reference, and refused credentials counted', async () => {
    expect(await rulesDuring(s, () => call(s.personServerUrl + TOKEN_PATH))).toEqual(['token.method'])
    expect(await rulesDuring(s, () => call(`${s.personServerUrl}/v2/oauth2/oauth/token`, { method: 'POST', body: 'grant_type=client_credentials', headers: { authorization: basic(CLIENT.clientId, CLIENT.clientSecret), 'content-type': 'application/x-www-form-urlencoded' } }))).toEqual(['token.query', 'token.body'])
    const failed = s.failedSignIns
    const wrong = await tokenCall(s, basic(CLIENT.clientId, 'nope'))
    expect([wrong.status, wrong.json.error, s.failedSignIns]).toEqual([401, 'invalid_client', failed + 1])
  })

  it('an unwrapped licence body', async () => {
    const rules = await rulesDuring(s, async () => {
      const reply = await c.person(`${P}/tenant/KIOSK/svrgrp/main/alg/StandinFace`, { method: 'PUT', json: { info: 'x', maxIdentities: 1, expireDate: 1 } })
      expect([reply.status, reply.json.message]).toEqual([400, 'licenseData is required'])
    })
    expect(rules).toEqual(['alg.licenseData'])
    const typed = (licenseData: unknown) => rulesDuring(s, () => c.person(`${P}/tenant/KIOSK/svrgrp/main/alg/StandinFace`, { method: 'PUT', json: { licenseData } }))
    expect(await typed({})).toEqual([]) // fields are typed, not said to be required
    expect(await typed({ info: '', maxIdentities: 0, expireDate: null })).toEqual([])
    expect(await typed({ info: 'x', expireDate: '2031-01-01' })).toEqual(['alg.licenseData'])
  })

  it('a create without a look-up, and a create of a person the look-up found', async () => {
    expect(await rulesDuring(s, async () => expect((await c.person(`${P}/tenant/KIOSK/person`, { method: 'POST', json: { userId: 'eve@example.com' } })).status).toBe(201))).toEqual(['person.create-without-lookup'])
    await c.person(`${P}/person?userId=eve@example.com`)
    expect(await rulesDuring(s, async () => expect((await c.person(`${P}/tenant/KIOSK/person`, { method: 'POST', json: { userId: 'eve@example.com' } })).status).toBe(409))).toEqual(['person.create-existing'])
  })

  it('a delete while another tenant holds the person, or without the look-ups of rule 2', async () => {
    const uuid = s.addPerson('two@example.com', ['KIOSK', 'OTHER'])
    await c.person(`${P}/person?userId=two@example.com`)
    await c.person(`${P}/person/${uuid}/tenant`, { headers: JSON_HEADERS })
    await c.person(`${P}/tenant/KIOSK/person/${uuid}`, { method: 'DELETE' })
    expect(await rulesDuring(s, () => c.person(`${P}/person/${uuid}`, { method: 'DELETE' }))).toEqual(['person.delete-still-associated'])
    const bare = s.addPerson('bare@example.com', [])
    expect(await rulesDuring(s, () => c.person(`${P}/person/${bare}`, { method: 'DELETE' }))).toEqual(['person.delete-without-lookup', 'person.delete-without-tenant-list'])
  })

  it("a person's tenants asked without Accept and Content-Type application/json", async () => {
    const uuid = s.addPerson('hdr@example.com', ['KIOSK'])
    expect(await rulesDuring(s, () => c.person(`${P}/person/${uuid}/tenant`))).toEqual(['headers.accept', 'headers.content-type'])
  })

  it('/match images outside the §8 limits', async () => {
    const tooWide = await call(`${s.bioEngineUrl}/match`, { method: 'POST', body: matchForm(photoA, smallB) }) // 1920 px wide
    expect(tooWide.status).toBe(400)
    const noise = await sharp(Buffer.from(Array.from({ length: 1000 * 1000 * 3 }, () => Math.floor(Math.random() * 256))), { raw: { width: 1000, height: 1000, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer()
    expect(noise.length).toBeGreaterThan(2 * 1024 * 1024)
    expect(await rulesDuring(s, () => call(`${s.bioEngineUrl}/match`, { method: 'POST', body: matchForm(smallA, noise) }))).toEqual(['match.image-size'])
    expect(await rulesDuring(s, () => call(`${s.bioEngineUrl}/match`, { method: 'POST', body: matchForm(smallA, Buffer.from('not an image')) }))).toEqual(['match.image-format'])
    expect(s.departures.filter((d) => d.rule === 'match.image-dimensions')).toHaveLength(1)
  })

  it('a body on a call the reference gives none, and other shapes off the reference', async () => {
    const uuid = s.addPerson('body@example.com', [])
    expect(await rulesDuring(s, () => c.person(`${P}/tenant/KIOSK/person/${uuid}`, { method: 'PUT', json: {} }))).toEqual(['body.none'])
    expect(await rulesDuring(s, () => c.person(`${P}/person?sort=+userId`))).toEqual(['query.sort'])
    expect(await rulesDuring(s, () => c.person('/v2/gmiserver/nowhere'))).toEqual(['route.unknown'])
    expect(await rulesDuring(s, () => call(s.bioEngineUrl.replace('/bioengine', '/template-types'), { token: c.token }))).toEqual(['route.base-path'])
    expect(await rulesDuring(s, () => c.bio('/biometrics', { method: 'POST', json: { templateType: 'Face:Other', samples: [] } }))).toEqual(['bio.template-type'])
    expect(await rulesDuring(s, () => c.bio('/identify', { method: 'POST', body: JSON.stringify({ identifyInputs: [{ templateType: TEMPLATE_TYPE }] }) }))).toEqual(['headers.content-type'])
  })
})

describe('the stand-in decodes HTTP Basic as configured', () => {
  it("'plain' takes base64(id:secret) as is; 'form-urlencoded' wants both parts URL-encoded first", async () => {
    const secret = 'p@ss:w/rd+'
    for (const basicEncoding of ['plain', 'form-urlencoded'] as const) {
      const s = await startStandin({ ...CLIENT, clientSecret: secret, basicEncoding })
      try {
        const statuses = [basic(CLIENT.clientId, secret), basic(CLIENT.clientId, encodeURIComponent(secret))].map(async (auth) => (await tokenCall(s, auth)).status)
        expect(await Promise.all(statuses)).toEqual(basicEncoding === 'plain' ? [200, 401] : [401, 200])
      } finally {
        await s.close()
      }
    }
  })
})

describe('injected faults', () => {
  let s: Standin
  let c: Awaited<ReturnType<typeof signIn>>
  beforeAll(async () => {
    s = await startStandin({ ...CLIENT, variant: 'spring' })
    c = await signIn(s)
  })
  afterAll(() => s.close())
  const persons = () => s.state().persons.map((p) => p.userId)

  it('status500 and garbage answer without applying the request', async () => {
    s.inject({ server: 'person', method: 'POST', path: /\/person$/, fault: 'status500' })
    await c.person(`${P}/person?userId=f1@example.com`)
    const failed = await c.person(`${P}/tenant/KIOSK/person`, { method: 'POST', json: { userId: 'f1@example.com' } })
    expect([failed.status, failed.json.status]).toEqual([500, 500])
    s.inject({ path: /^\/bioengine\/template-types/, fault: 'garbage' })
    const garbage = await c.bio('/template-types')
    expect([garbage.status, garbage.headers['content-type'], garbage.json]).toEqual([200, 'application/json', undefined])
    expect(persons()).not.toContain('f1@example.com')
    expect(s.requests.filter((r) => r.fault).map((r) => [r.fault, r.status])).toEqual([
      ['status500', 500],
      ['garbage', 200],
    ])
  })

  it('reset drops the connection before applying; offline refuses every connection', async () => {
    s.inject({ method: 'POST', path: /\/person$/, fault: 'reset' })
    await expect(c.person(`${P}/tenant/KIOSK/person`, { method: 'POST', json: { userId: 'f2@example.com' } })).rejects.toThrow()
    expect(persons()).not.toContain('f2@example.com')
    s.setOnline(false)
    await expect(c.person(`${P}/tenant/KIOSK`)).rejects.toThrow()
    s.setOnline(true)
    expect((await c.person(`${P}/tenant/KIOSK`)).status).toBe(200)
  })

  it('lost-reply applies the request and then drops it: a replay finds the work done once', async () => {
    await c.person(`${P}/person?userId=f3@example.com`)
    s.inject({ method: 'POST', path: /\/person$/, fault: 'lost-reply' })
    await expect(c.person(`${P}/tenant/KIOSK/person`, { method: 'POST', json: { userId: 'f3@example.com' } })).rejects.toThrow()
    const found = await c.person(`${P}/person?userId=f3@example.com`)
    expect(found.status).toBe(200)
    const uuid = idOf(found.json)

    const enroll = () => c.bio(`/persons/${uuid}/biometrics`, { method: 'POST', json: { templateType: TEMPLATE_TYPE, templateContext: 'k', samples: [photoA.toString('base64')] } })
    s.inject({ server: 'bio', path: /biometrics$/, fault: 'lost-reply' })
    await expect(enroll()).rejects.toThrow()
    expect((await enroll()).status).toBe(201)
    expect(s.state().templates.filter((t) => t.personId === uuid)).toHaveLength(1)
    expect(persons().filter((p) => p === 'f3@example.com')).toHaveLength(1)
  })

  it('expired-token answers 401 with invalid_token and forgets the token: only a new token works', async () => {
    s.inject({ server: 'person', path: /\/tenant\/KIOSK$/, fault: 'expired-token' })
    const expired = await c.person(`${P}/tenant/KIOSK`)
    expect([expired.status, expired.headers['www-authenticate']]).toEqual([401, 'Bearer error="invalid_token", error_description="Access token expired"'])
    expect((await c.person(`${P}/tenant/KIOSK`)).status).toBe(401)
    expect((await c.bio('/template-types')).status).toBe(401)
    c = await signIn(s)
    expect((await c.person(`${P}/tenant/KIOSK`)).status).toBe(200)
    expect(s.departures).toEqual([])
  })

  it('hang never answers, until the client gives up or close() ends it promptly', async () => {
    s.inject({ path: /template-types/, fault: 'hang' })
    await expect(c.bio('/template-types', { timeoutMs: 300 })).rejects.toThrow()
    const other = await startStandin(CLIENT)
    const token = (await tokenCall(other)).json.access_token
    other.inject({ path: /tenant/, fault: 'hang' })
    const pending = call(`${other.personServerUrl}${P}/tenant/KIOSK`, { token }).catch((error: unknown) => error)
    await new Promise((resolve) => setTimeout(resolve, 100))
    const started = Date.now()
    await other.close()
    expect(await pending).toBeInstanceOf(Error)
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it('refuses a token past its lifetime with 401, and no departure', async () => {
    const brief = await startStandin({ ...CLIENT, tokenLifetimeSeconds: 0 })
    try {
      const token = (await tokenCall(brief)).json.access_token
      expect((await call(`${brief.personServerUrl}${P}/tenant/KIOSK`, { token })).status).toBe(401)
      expect(brief.departures).toEqual([])
    } finally {
      await brief.close()
    }
  })

  it('refuses a body over 16 MB with 413', async () => {
    const big = await c.bio('/identify', { method: 'POST', body: Buffer.alloc(17 * 1024 * 1024, 0x20), headers: { 'content-type': 'application/json' } })
    expect(big.status).toBe(413)
  })
})
