import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFacePlugins } from '../../electron/engine/face'
import { basic, startTestEngine, TEST_CLIENT, type TestEngine } from '../support/engine'
import { fuzzImages, type FuzzImages } from './images'
import { fuzzSeed, plan } from './plan'
import { ANSWER_WITHIN_MS, describeOutcome, isServerError, isSlow, isUnanswered, isUnhintedOverload, summary } from './report'
import { routesOf, type FuzzRoute } from './route-table'
import { sendAll, type Outcome } from './send'
import { authVariants } from './tokens'
import { buildWorld, hintsFor } from './world'

/** At least this many hostile requests per run, spread over every route. */
const MIN_REQUESTS = 2000
/** Sent per run: half again the floor (34 per route); a run with FUZZ_SEED replays any one of them. */
const REQUESTS = 3000
const CONCURRENCY = 8
/** A request unanswered this long is abandoned (and fails the 10 s ceiling), so a hang cannot hang CI. */
const ABANDON_MS = 15_000
/**
 * RSS (client and engine share this process) may grow at most this much over the run. In flight at
 * once: 8 requests, each up to its route's body limit (32 MB for calls with samples), held by the
 * client, by the engine as bytes and again as a string or parsed objects (~3×): ~1 GB at worst;
 * plus decoded images (a 4096² sample is 48 MB of pixels, a few at a time) and the face workers'
 * tensors. More than that is a leak or an unbounded buffer.
 */
const RSS_GROWTH_BOUND_MB = 1536
const MB = 1024 * 1024

const examples = (failed: Outcome[], all: Outcome[]) => failed.slice(0, 8).map((o) => describeOutcome(o, all)).join('\n')

describe('embedded engine under generated hostile requests', () => {
  const seed = fuzzSeed()
  let t: TestEngine
  let images: FuzzImages
  let routes: readonly FuzzRoute[]
  let outcomes: Outcome[]
  let perRoute: number
  let baselineRssMb: number
  let peakRssMb = 0

  beforeAll(async () => {
    t = await startTestEngine(await loadFacePlugins({ threads: 1, log: () => {} }))
    images = await fuzzImages()
    const world = await buildWorld(t, images)
    const auth = await authVariants(t)
    routes = routesOf(t.engine)
    perRoute = Math.ceil(REQUESTS / routes.length)
    const requests = plan(routes, { hints: hintsFor(world, images), auth, validBasic: { name: 'valid', header: basic(TEST_CLIENT.id, TEST_CLIENT.secret) }, images }, seed, perRoute)
    console.log(`engine fuzz: seed ${seed} (FUZZ_SEED=${seed} replays this run), ${requests.length} requests over ${routes.length} routes, ${CONCURRENCY} at a time`)

    baselineRssMb = process.memoryUsage().rss / MB
    const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, process.memoryUsage().rss / MB)), 100)
    try {
      outcomes = await sendAll(t.url, requests, { concurrency: CONCURRENCY, abortMs: ABANDON_MS, files: images.files })
    } finally {
      clearInterval(sampler)
    }
    console.log(`${summary(outcomes)}\nRSS: ${baselineRssMb.toFixed(0)} MB before, peak ${peakRssMb.toFixed(0)} MB`)
  })
  afterAll(() => t?.close())

  it(`sends at least ${MIN_REQUESTS} requests, to every route the engine has`, () => {
    for (const route of routes) expect(t.engine.app.hasRoute({ method: route.method as 'GET', url: route.url }), `${route.method} ${route.url} is not an engine route`).toBe(true)
    const answered = new Map<string, number>()
    for (const o of outcomes) answered.set(o.request.route, (answered.get(o.request.route) ?? 0) + 1)
    expect(outcomes.length).toBeGreaterThanOrEqual(MIN_REQUESTS)
    for (const route of routes) expect(answered.get(`${route.method} ${route.url}`), `${route.method} ${route.url}`).toBe(perRoute)
  })

  it('answers no request with a 5xx, except 503 (overload) with a Retry-After', () => {
    const failed = outcomes.filter(isServerError)
    expect(failed.length, `seed ${seed}, e.g.:\n${examples(failed, outcomes)}`).toBe(0)
    const unhinted = outcomes.filter(isUnhintedOverload)
    expect(unhinted.length, `seed ${seed}, 503 without Retry-After, e.g.:\n${examples(unhinted, outcomes)}`).toBe(0)
  })

  it(`answers every request, each within ${ANSWER_WITHIN_MS / 1000} s`, () => {
    const unanswered = outcomes.filter(isUnanswered)
    expect(unanswered.length, `seed ${seed}, no HTTP answer, e.g.:\n${examples(unanswered, outcomes)}`).toBe(0)
    const slow = outcomes.filter(isSlow).sort((a, b) => b.ms - a.ms)
    expect(slow.length, `seed ${seed}, slowest first:\n${examples(slow, outcomes)}`).toBe(0)
  })

  it('keeps its memory bounded', () => {
    expect(peakRssMb - baselineRssMb, `RSS ${baselineRssMb.toFixed(0)} MB before, peak ${peakRssMb.toFixed(0)} MB`).toBeLessThan(RSS_GROWTH_BOUND_MB)
  })

  it('still answers afterwards, its face workers included', async () => {
    // With the token from before the run: the fuzzer's wrong secrets may have paused new ones (429).
    const types = await t.call('GET', '/bioengine/template-types')
    expect(types.status).toBe(200)
    const templateType = types.body.templateTypes[0].templateType
    const created = await t.call('POST', '/bioengine/biometrics', { templateType, samples: [images.face.toString('base64')] })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
  })
})
