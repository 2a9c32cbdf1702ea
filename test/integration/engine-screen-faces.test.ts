import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BioErrorCode } from '../../electron/engine/bio/error-codes'
import { decodeTemplate, encodeTemplate, normalize } from '../../electron/engine/bio/template-codec'
import { loadFacePlugins } from '../../electron/engine/face'
import { HUMAN_FACERES } from '../../electron/engine/face/specs'
import { STAFF_SESSION_HEADER } from '../../electron/shared/frontdesk-api'
import { MAX_LISTED_FACES, SCREEN_FACES_MAX_GALLERY } from '../../electron/shared/listed-faces'
import { pullResult } from '../../electron/shared/site-sync'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { fd, pair, post, type PairedKiosk } from '../support/paired-kiosk'
import { projectRoot } from '../support/process'

// A kiosk screens visitors' faces against its site's watchlist while the site is away: the site's
// pull carries each listed person's newest templates, and the kiosk's own engine compares samples
// with them (POST /bioengine/screen-faces). Real face models; person-a1/a2 are one person, b–e others.
const fixture = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name))
const b64 = (name: string) => fixture(name).toString('base64')

interface Match {
  id: string
  score: number
}

describe('screening faces against a gallery of listed persons', () => {
  let t: TestEngine
  let types: Array<{ templateType: string; scoreThreshold: number }>
  let type: string
  /** Templates made by POST /bioengine/biometrics from one photograph each. */
  const made: Record<string, string> = {}

  beforeAll(async () => {
    t = await startTestEngine(await loadFacePlugins({ threads: 2, log: () => {} }), undefined, { tenant: TEST_TENANT })
    types = (await t.call('GET', '/bioengine/template-types')).body.templateTypes
    type = types[0]!.templateType
    for (const name of ['person-a1', 'person-a2', 'person-b', 'person-c']) {
      const created = await t.call('POST', '/bioengine/biometrics', { templateType: type, samples: [b64(`${name}.jpg`)] })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      made[name] = created.body.templatedata
    }
  })
  afterAll(async () => {
    await t?.close()
  })

  const screen = (body: Record<string, unknown>) => t.call('POST', '/bioengine/screen-faces', { templateType: type, ...body })
  const matchesOf = async (body: Record<string, unknown>): Promise<Match[]> => {
    const reply = await screen(body)
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    return reply.body.matches
  }

  describe('POST /bioengine/screen-faces', () => {
    it('answers the gallery persons a sample matches, with the score verify gives, and no one else', async () => {
      const matches = await matchesOf({
        samples: [b64('person-a2.jpg')],
        gallery: [
          { id: 'bee', templates: [made['person-b']!] },
          { id: 'ada', templates: [made['person-a1']!] },
          { id: 'cyd', templates: [made['person-c']!] },
        ],
      })
      expect(matches).toEqual([{ id: 'ada', score: expect.any(Number) }])
      expect(matches[0]!.score).toBeGreaterThanOrEqual(48)

      // The same decision and score as the site's own 1:1 against that template.
      const person = (await t.call('POST', `/v2/gmiserver/tenant/${TEST_TENANT}/person`, { userId: `verify-${randomUUID()}@bio.example` })).body.uuid
      expect((await t.call('POST', `/bioengine/persons/${person}/biometrics`, { templateType: type, templateContext: 'c1', template: made['person-a1'] })).status).toBe(201)
      const verified = await t.call('POST', `/bioengine/persons/${person}/verify`, { verifyInputs: [{ templateType: type, sample: b64('person-a2.jpg') }] })
      expect(matches[0]!.score).toBe(verified.body.allMatchResults[0].matchResults[0].score)
    })

    it('logs counts only, never the ids of the gallery or its templates', async () => {
      const id = `listed-${randomUUID()}`
      await matchesOf({ samples: [b64('person-a2.jpg')], gallery: [{ id, templates: [made['person-a1']!] }] })
      const log = readFileSync(join(t.dataDir, 'logs', 'engine.log'), 'utf8')
      expect(log).toMatch(/screen-faces: 1 samples against 1 persons; 1 matched/)
      expect(log).not.toContain(id)
      expect(log).not.toContain(made['person-a1']!.slice(20, 60))
    })

    it('names each matched id once, with its best score, best first', async () => {
      const matches = await matchesOf({
        samples: [b64('person-a2.jpg'), b64('person-a1.jpg')],
        gallery: [
          { id: 'ada-from-a2', templates: [made['person-a2']!] },
          { id: 'bee', templates: [made['person-b']!] },
          { id: 'ada', templates: [made['person-b']!, made['person-a1']!] },
          { id: 'ada', templates: [made['person-c']!] },
        ],
      })
      expect(matches.map((m) => m.id).sort()).toEqual(['ada', 'ada-from-a2'])
      // Each sample matches its own photograph's template almost exactly.
      for (const match of matches) expect(match.score).toBeGreaterThanOrEqual(95)
      expect([...matches].sort((x, y) => y.score - x.score)).toEqual(matches)
    })

    it('decides at the threshold asked for, else at the template type’s own', async () => {
      const gallery = [{ id: 'ada', templates: [made['person-a1']!] }]
      const score = (await matchesOf({ samples: [b64('person-a2.jpg')], gallery }))[0]!.score
      expect(score).toBeLessThan(100)
      expect(await matchesOf({ samples: [b64('person-a2.jpg')], gallery, thresholdValue: 100 })).toEqual([])
      expect(await matchesOf({ samples: [b64('person-a2.jpg')], gallery, thresholdValue: Math.floor(score) })).toEqual([{ id: 'ada', score }])
      // A stranger below the type's threshold matches at a threshold of 0.
      expect(await matchesOf({ samples: [b64('person-c.jpg')], gallery })).toEqual([])
      expect(await matchesOf({ samples: [b64('person-c.jpg')], gallery, thresholdValue: 0 })).toEqual([{ id: 'ada', score: expect.any(Number) }])
    })

    it('refuses a gallery template that is not a template of the requested type with a clear 400', async () => {
      const good = made['person-a1']!
      const template = decodeTemplate(Buffer.from(good, 'base64'))
      const forged: Array<[string, string, number]> = [
        ['garbage base64', 'this is not base64!', BioErrorCode.BAD_INPUT],
        ['bytes that are no template', Buffer.from('hello, this is not a template').toString('base64'), BioErrorCode.BAD_TEMPLATE],
        ['another plugin', encodeTemplate({ ...template, plugin: 'OtherPlugin' }).toString('base64'), BioErrorCode.TEMPLATE_TYPE_MISMATCH],
        ['another model version', encodeTemplate({ ...template, modelVersion: template.modelVersion + 1 }).toString('base64'), BioErrorCode.TEMPLATE_TYPE_MISMATCH],
        ['other dimensions', encodeTemplate({ ...template, vector: template.vector.slice(0, 64) }).toString('base64'), BioErrorCode.TEMPLATE_TYPE_MISMATCH],
      ]
      // With a second plugin installed, its real templates are of another type too.
      for (const other of types.slice(1)) {
        const created = await t.call('POST', '/bioengine/biometrics', { templateType: other.templateType, samples: [b64('person-a1.jpg')] })
        forged.push([other.templateType, created.body.templatedata, BioErrorCode.TEMPLATE_TYPE_MISMATCH])
      }
      for (const [what, bad, code] of forged) {
        const reply = await screen({ samples: [b64('person-a2.jpg')], gallery: [{ id: 'ada', templates: [good] }, { id: 'bee', templates: [good, bad] }] })
        expect(reply.status, `${what}: ${JSON.stringify(reply.body)}`).toBe(400)
        expect(reply.body.code, what).toBe(code)
        // Which template, by its place in the gallery (never the caller's ids).
        expect(reply.body.message, what).toMatch(/gallery person 2, template 2/)
        expect(reply.body.message, what).not.toMatch(/bee/)
      }
    })

    it('refuses a gallery past its limit, an unknown template type, and a malformed body with a clear 400', async () => {
      const person = { id: 'ada', templates: [made['person-a1']!] }
      const tooMany = await screen({ samples: [b64('person-a2.jpg')], gallery: Array.from({ length: SCREEN_FACES_MAX_GALLERY + 1 }, (_, i) => ({ ...person, id: `p${i}` })) })
      expect(tooMany.status).toBe(400)
      expect(tooMany.body.message).toMatch(/gallery/)
      const unknown = await screen({ templateType: 'Face:NoSuchPlugin', samples: [b64('person-a2.jpg')], gallery: [person] })
      expect(unknown.status).toBe(400)
      expect(unknown.body).toMatchObject({ code: BioErrorCode.UNKNOWN_TEMPLATE_TYPE, message: expect.stringMatching(/Face:NoSuchPlugin/) })
      const cases: Array<[string, Record<string, unknown>]> = [
        ['no gallery', { samples: [b64('person-a2.jpg')], gallery: [] }],
        ['no samples', { samples: [], gallery: [person] }],
        ['too many templates', { samples: [b64('person-a2.jpg')], gallery: [{ id: 'ada', templates: Array(MAX_LISTED_FACES + 1).fill(made['person-a1']) }] }],
        ['a person with no templates', { samples: [b64('person-a2.jpg')], gallery: [{ id: 'ada', templates: [] }] }],
        ['a threshold past 100', { samples: [b64('person-a2.jpg')], gallery: [person], thresholdValue: 101 }],
        ['an unknown field', { samples: [b64('person-a2.jpg')], gallery: [person], maxResults: 3 }],
      ]
      for (const [what, body] of cases) {
        const reply = await screen(body)
        expect(reply.status, `${what}: ${JSON.stringify(reply.body)}`).toBe(400)
        expect(typeof reply.body.message, what).toBe('string')
      }
    })

    it('answers a sample without a face, or not an image, as creating a template does', async () => {
      const gallery = [{ id: 'ada', templates: [made['person-a1']!] }]
      for (const [sample, code] of [
        [b64('no-face.jpg'), BioErrorCode.NO_FACE],
        [Buffer.from('not an image at all').toString('base64'), BioErrorCode.BAD_IMAGE],
      ] as const) {
        const created = await t.call('POST', '/bioengine/biometrics', { templateType: type, samples: [sample] })
        const screened = await screen({ samples: [b64('person-a2.jpg'), sample], gallery })
        expect(screened.status).toBe(400)
        expect(screened.body.code).toBe(code)
        expect(screened.body).toEqual({ code: created.body.code, message: expect.any(String) })
      }
    })

    it('needs a bearer token', async () => {
      const reply = await request(`${t.bio}/screen-faces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ templateType: type, samples: [b64('person-a2.jpg')], gallery: [{ id: 'ada', templates: [made['person-a1']!] }] }),
      })
      expect(reply.statusCode).toBe(401)
      await reply.body.dump()
    })

    it('declares a body limit that takes ten samples and a full gallery of such templates', () => {
      const route = t.engine.routes.find((r) => r.method === 'POST' && r.url === '/bioengine/screen-faces')!
      const templateChars = Math.max(...Object.values(made).map((template) => template.length))
      expect(route.bodyLimit).toBeGreaterThanOrEqual(32 * 1024 * 1024 + SCREEN_FACES_MAX_GALLERY * MAX_LISTED_FACES * templateChars)
      expect(route.bodyLimit).toBeLessThan(64 * 1024 * 1024)
    })
  })

  describe("a site's pull", () => {
    let kiosk: PairedKiosk
    let session: string
    const asAdmin = () => ({ authorization: `Bearer ${kiosk.token}`, [STAFF_SESSION_HEADER]: session })
    const newPerson = async (tag: string) => {
      const userId = `${tag}-${randomUUID()}@bio.example`
      const reply = await t.call('POST', `/v2/gmiserver/tenant/${TEST_TENANT}/person`, { userId })
      expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      return { uuid: reply.body.uuid as string, userId }
    }
    const enroll = async (personId: string, templateContext: string, template: string) => {
      const reply = await t.call('POST', `/bioengine/persons/${encodeURIComponent(personId)}/biometrics`, { templateType: type, templateContext, template })
      expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      // Enrollments a millisecond apart at least: "newest" is by the time of enrollment.
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    const list = async (personUuid: string) => {
      const reply = await t.call('POST', fd('/watchlist'), { personUuid, email: `${personUuid}@example.com`, reason: 'Banned after an incident' }, asAdmin())
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    }
    const pulled = async () => {
      const reply = await t.call('GET', fd('/sync/pull'), undefined, { authorization: `Bearer ${kiosk.token}` })
      expect(reply.status, JSON.stringify(reply.body).slice(0, 500)).toBe(200)
      const ops = pullResult.parse(reply.body).ops
      return (personUuid: string) => {
        const op = ops.find((o) => o.topic === 'watchlist' && o.key === personUuid)
        expect(op, personUuid).toBeDefined()
        return (op!.value as { faces?: Array<{ templateType: string; template: string }> }).faces
      }
    }

    beforeAll(async () => {
      kiosk = await pair(t, 'Lobby')
      const admin = await post(t.url, fd('/staff/first-admin'), { name: 'Ada Admin', secret: 'admin-secret-1' }, kiosk.token)
      expect(admin.status, JSON.stringify(admin.body)).toBe(200)
      session = admin.body.session
    })

    it("sends each listed person's newest faces, which a kiosk's engine then screens against", async () => {
      // By uuid: an old enrollment of another face, then three of this person's, newest last.
      const ada = await newPerson('ada')
      await enroll(ada.uuid, 'c0', made['person-b']!)
      await enroll(ada.uuid, 'c1', made['person-a1']!)
      await enroll(ada.userId, 'c2', made['person-a1']!)
      await enroll(ada.uuid.toUpperCase(), 'c3', made['person-a2']!)
      // By userId only.
      const eve = await newPerson('eve')
      await enroll(eve.userId, 'desk', made['person-a1']!)
      // Listed with nothing enrolled, or not on the person server at all.
      const nobody = await newPerson('nobody')
      const stranger = randomUUID()
      for (const person of [ada.uuid, eve.uuid, nobody.uuid, stranger]) await list(person)

      const facesOf = await pulled()
      const adaFaces = facesOf(ada.uuid)!
      expect(adaFaces).toHaveLength(MAX_LISTED_FACES)
      for (const face of adaFaces) expect(face).toEqual({ templateType: type, template: expect.any(String) })
      const eveFaces = facesOf(eve.uuid)!
      expect(eveFaces).toEqual([{ templateType: type, template: expect.any(String) }])
      expect(facesOf(nobody.uuid) ?? []).toEqual([])
      expect(facesOf(stranger) ?? []).toEqual([])

      const gallery = [
        { id: ada.uuid, templates: adaFaces.map((f) => f.template) },
        { id: eve.uuid, templates: eveFaces.map((f) => f.template) },
      ]
      const seen = await matchesOf({ samples: [b64('person-a2.jpg')], gallery })
      expect(seen.map((m) => m.id).sort()).toEqual([ada.uuid, eve.uuid].sort())
      // The oldest enrollment (another face) was left out: person-b matches no one.
      expect(await matchesOf({ samples: [b64('person-b.jpg')], gallery })).toEqual([])
    })

    it('sends no faces with an entry no longer on the list', async () => {
      const gone = await newPerson('gone')
      await enroll(gone.uuid, 'desk', made['person-a1']!)
      await list(gone.uuid)
      const first = await t.call('GET', fd('/sync/pull'), undefined, { authorization: `Bearer ${kiosk.token}` })
      const { cookie } = pullResult.parse(first.body)
      const removed = await t.call('DELETE', fd(`/watchlist/${gone.uuid}`), undefined, asAdmin())
      expect(removed.status).toBe(204)
      const next = await t.call('GET', fd(`/sync/pull?cookie=${cookie}`), undefined, { authorization: `Bearer ${kiosk.token}` })
      expect(next.status, JSON.stringify(next.body)).toBe(200)
      expect(pullResult.parse(next.body).ops).toEqual([{ topic: 'watchlist', key: gone.uuid, value: null }])
    })
  })
})

describe('screening faces while the face workers are overloaded', () => {
  let t: TestEngine
  let type: string
  let template: string

  beforeAll(async () => {
    // Room for one 128×128 image per caller: a second sample waits past the queue's limit.
    const plugins = await loadFacePlugins({ threads: 1, log: () => {}, maxQueuedPixels: 128 * 128 * 2 }, [HUMAN_FACERES])
    const plugin = plugins[0]!
    t = await startTestEngine(plugins)
    type = `Face:${plugin.name}`
    const vector = normalize(Float32Array.from({ length: plugin.dimensions }, (_, i) => Math.sin(i + 1)))
    template = encodeTemplate({ plugin: plugin.name, modelVersion: plugin.modelVersion, quality: 0.9, vector }).toString('base64')
  })
  afterAll(async () => {
    await t?.close()
  })

  it('answers 503 with Retry-After, never 500', async () => {
    const reply = await t.call('POST', '/bioengine/screen-faces', { templateType: type, samples: [b64('person-a1.jpg'), b64('person-a2.jpg')], gallery: [{ id: 'ada', templates: [template] }] })
    expect(reply.status, JSON.stringify(reply.body)).toBe(503)
    expect(Number(reply.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(reply.body).toMatchObject({ code: 503, message: expect.stringMatching(/busy/) })
  })
})
