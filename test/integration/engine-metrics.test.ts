import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeTemplate } from '../../electron/engine/bio/template-codec'
import { loadFacePlugins } from '../../electron/engine/face'
import { HUMAN_FACERES } from '../../electron/engine/face/specs'
import { prng, unitVector } from '../bench/lib/seed'
import { startTestEngine, type TestEngine } from '../support/engine'

/**
 * GET /metrics: Prometheus' text format, on this machine only (or with the metrics token), with
 * the routes' request counts and latencies by route pattern, identify latency and templates cached
 * per type, the change log's position and the process's own metrics. Nothing in it names a person.
 */
const TYPE = `Face:${HUMAN_FACERES.name}`
const random = prng(4949)
const template = () => encodeTemplate({ plugin: HUMAN_FACERES.name, modelVersion: HUMAN_FACERES.modelVersion, quality: 0.9, vector: unitVector(HUMAN_FACERES.dimensions, random) }).toString('base64')
const PERSON = 'metrics-person-4949@example.com'
const TOKEN = 'metrics-token-0123456789abcdef'

async function scrape(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; type: string }> {
  const reply = await request(`${url}/metrics`, { headers })
  return { status: reply.statusCode, text: await reply.body.text(), type: String(reply.headers['content-type']) }
}

describe('an engine’s metrics', () => {
  let open: TestEngine
  let guarded: TestEngine
  let off: TestEngine

  beforeAll(async () => {
    const plugins = () => loadFacePlugins({ threads: 1, log: () => {} }, [HUMAN_FACERES])
    open = await startTestEngine(await plugins())
    guarded = await startTestEngine(await plugins(), undefined, { metricsToken: TOKEN })
    off = await startTestEngine(await plugins(), undefined, { metrics: false })
  })
  afterAll(async () => {
    await open?.close()
    await guarded?.close()
    await off?.close()
  })

  it('counts requests by route pattern, and identify and the caches by template type; names no person', async () => {
    const probe = template()
    expect((await open.call('POST', `/bioengine/persons/${encodeURIComponent(PERSON)}/biometrics`, { templateType: TYPE, templateContext: 'desk', template: probe })).status).toBe(201)
    expect((await open.call('POST', '/bioengine/identify', { identifyInputs: [{ templateType: TYPE, template: probe }] })).status).toBe(200)
    const { status, text, type } = await scrape(open.url)
    expect(status).toBe(200)
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="POST",route="\/bioengine\/persons\/:personid\/biometrics",status_code="201"\} 1$/m)
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="POST",route="\/bioengine\/identify",status_code="200"\} 1$/m)
    expect(text).toMatch(new RegExp(`^kiosk_engine_identify_seconds_count\\{template_type="${TYPE}"\\} 1$`, 'm'))
    expect(text).toMatch(new RegExp(`^kiosk_engine_templates_cached\\{template_type="${TYPE}"\\} 1$`, 'm'))
    expect(text).toMatch(/^kiosk_engine_changes_applied [1-9]\d*$/m)
    expect(text).toMatch(/^kiosk_engine_changes_behind 0$/m)
    expect(text).toMatch(/^kiosk_site_jobs\{kind="host-notice",state="failed"\} 0$/m)
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m)
    expect(text).not.toContain('metrics-person')
  })

  it('answers this machine only, never through a proxy; with a token, whoever presents it', async () => {
    expect((await scrape(open.url, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(403)
    expect((await scrape(guarded.url)).status).toBe(401)
    expect((await scrape(guarded.url, { authorization: 'Bearer wrong-token-0123456789abcdef' })).status).toBe(401)
    const scraped = await scrape(guarded.url, { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': '203.0.113.9' })
    expect(scraped.status).toBe(200)
    expect(scraped.text).toMatch(/^kiosk_engine_changes_applied /m)
  })

  it('with metrics off (ENGINE_METRICS=off) there is no /metrics, and identify answers as before', async () => {
    expect((await scrape(off.url)).status).toBe(404)
    const probe = template()
    expect((await off.call('POST', `/bioengine/persons/${encodeURIComponent(PERSON)}/biometrics`, { templateType: TYPE, templateContext: 'desk', template: probe })).status).toBe(201)
    const found = await off.call('POST', '/bioengine/identify', { identifyInputs: [{ templateType: TYPE, template: probe }] })
    expect(found.status).toBe(200)
    expect(JSON.stringify(found.body)).toContain(PERSON)
  })
})
