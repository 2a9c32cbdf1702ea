import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeTemplate } from '../../electron/engine/bio/template-codec'
import { HUMAN_FACERES } from '../../electron/engine/face/specs'
import { SCOPE_TENANT_ADMIN } from '../../electron/shared/api-requests'
import { CONSENT } from '../../electron/shared/consent'
import { FRONTDESK_PREFIX, SCOPE_FRONTDESK_KIOSK } from '../../electron/shared/frontdesk-api'
import { running } from '../../electron/site/processes'
import { prng, unitVector } from '../bench/lib/seed'
import { projectRoot, tsxArgs } from '../support/process'
import { kioskAt, type KioskAt } from '../support/remote-kiosk'
import { freshKiosk, type FreshKiosk } from '../support/site-kiosk'
import { NODE_LINE, SITE_CLI, SITE_CLIENT, SITE_TEMPLATE_TYPE, SITE_TENANT, siteApi, startSite, stopSiteCleanly, type RunningSite, type SiteReply } from '../support/site'
import { eventually } from '../support/until'

/**
 * A site that loses its database machine, on the real processes: `npm run site -- --ha` with two engines (etcd, two
 * PostgreSQL nodes under Patroni with synchronous replication, haproxy following GET /primary).
 * The primary's Patroni and postmaster are SIGKILLed together under an enrollment, identify and
 * verify load: the standby takes over, every acknowledged enrollment is there, no client sees a
 * 500 or a hang, reads never fail, and the old node comes back as the new primary's standby. The
 * load's enrollments are template-only (random unit vectors); two kiosks' services (remote mode,
 * real keychain) enroll, identify and verify real faces through the first failover, and the
 * enrollment their outbox queued is delivered once; a kiosk joined to the site checks a visitor
 * in meanwhile, and the site has that visit once. Every wait is on a state (a line the site
 * prints, a reply); every loop is bounded; afterAll stops the site and every pid it printed, even
 * when a test failed.
 */
const TYPE = `Face:${HUMAN_FACERES.name}`
const random = prng(4747)
const template = () => encodeTemplate({ plugin: HUMAN_FACERES.name, modelVersion: HUMAN_FACERES.modelVersion, quality: 0.9, vector: unitVector(HUMAN_FACERES.dimensions, random) }).toString('base64')
const enrollBody = (data: string) => ({ templateType: TYPE, templateContext: 'desk', template: data })
const identifyBody = (data: string) => ({ identifyInputs: [{ templateType: TYPE, template: data }] })
const verifyBody = (data: string) => ({ verifyInputs: [{ templateType: TYPE, template: data }] })
const bestOf = (reply: SiteReply): string | undefined => reply.body?.allIdentifyResults?.[0]?.identifyResults?.[0]?.identifyMatchResults?.[0]?.personId
/** The kiosk's own default request timeout: a reply later than this is a hang. */
const KIOSK_TIMEOUT_MS = 20_000
const run = promisify(execFile)
/** Bounds on waits for states, far above what they take (about 10 s for a failover). */
const FAILOVER_BOUND_MS = 120_000
const REJOIN_BOUND_MS = 180_000

const photo = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name)).toString('base64')
// a1 and a2 are the same woman; b is another person.
const [ANA, ANA_OTHER_PHOTO, BO] = ['person-a1.jpg', 'person-a2.jpg', 'person-b.jpg'].map(photo) as [string, string, string]
const [ANA_ID, BO_ID] = ['ana@site-failover.example', 'bo@site-failover.example']
const enrollVisitor = (userId: string, sample: string) => ({ userId, samples: [sample], consent: true, consentVersion: CONSENT.version })
const ADMIN = { name: 'Site Admin', secret: 'site-admin-secret-1' }

interface NodeState {
  n: number
  patroniPid: number
  postgresPid: number
  role: 'primary' | 'standby'
}

/** Each node's latest line from `output`. */
function nodesOf(output: string[]): Map<number, NodeState> {
  const nodes = new Map<number, NodeState>()
  for (const line of output) {
    const match = NODE_LINE.exec(line)
    if (match) nodes.set(Number(match[1]), { n: Number(match[1]), patroniPid: Number(match[3]), postgresPid: Number(match[4]), role: match[5] as NodeState['role'] })
  }
  return nodes
}

describe('a site with two PostgreSQL nodes under Patroni (--ha): a database machine lost', () => {
  let site: RunningSite
  let front: ReturnType<typeof siteApi>
  /** A kiosk paired with the site, as the front desk's kiosks call it (every call also checks it is still paired). */
  let kiosk: ReturnType<typeof siteApi>
  /** Two kiosks' services in remote mode on the site's front: A enrolls, B identifies and verifies. */
  let a: KioskAt
  let b: KioskAt
  /** A kiosk joined to the site (its front desk), with the site's first administrator signed in. */
  let c: FreshKiosk

  beforeAll(async () => {
    site = await startSite({ engines: 2, args: ['--ha'] })
    front = siteApi(site.url)
    await front.signIn()
    const servers = { personServerUrl: site.url, bioEngineUrl: `${site.url}/bioengine`, tenantCode: SITE_TENANT, templateType: SITE_TEMPLATE_TYPE, clientId: SITE_CLIENT.id, clientSecret: SITE_CLIENT.secret }
    a = await kioskAt(servers)
    b = await kioskAt(servers)
    c = await freshKiosk()
  }, 300_000)

  afterAll(async () => {
    // Whatever fails here, the site is still stopped below.
    for (const close of [() => front?.close(), () => kiosk?.close(), () => a?.close(), () => b?.close(), () => c?.close()]) await Promise.resolve().then(close).catch(() => undefined)
    await stopSiteCleanly(site)
  }, 180_000)

  it('prints etcd, one primary and one standby, and which node is primary', () => {
    expect(site.output.some((line) => /^etcd pid \d+$/.test(line))).toBe(true)
    const nodes = nodesOf(site.output)
    expect([...nodes.values()].map((node) => node.role).sort()).toEqual(['primary', 'standby'])
    const primary = [...nodes.values()].find((node) => node.role === 'primary')!
    expect(site.output).toContain(`postgres primary is node ${primary.n}`)
  })

  /** A pairing code from `npm run site -- pair`, which finds the database through the site's haproxy (no password in the environment). */
  async function pairingCode(): Promise<string> {
    const env = { ...process.env }
    delete env.PGPASSFILE
    delete env.PGPASSWORD
    const [command, argv] = tsxArgs(SITE_CLI, ['pair', '--data', site.data])
    const { stdout } = await run(command, argv, { cwd: projectRoot, env, timeout: 60_000 })
    const code = /^pairing code ([2-9A-HJKMNP-Z]{8}) expires \S+\n$/.exec(stdout)?.[1]
    expect(code, stdout).toBeDefined()
    return code!
  }

  it('npm run site -- pair finds the database through the site\'s haproxy; kiosks join with its codes', async () => {
    const paired = await front.call('POST', `${FRONTDESK_PREFIX}/pair`, { code: await pairingCode(), name: 'Lobby' })
    expect(paired.status).toBe(200)
    kiosk = siteApi(site.url, undefined, { id: paired.body.clientId, secret: paired.body.clientSecret, scope: `${SCOPE_TENANT_ADMIN} ${SCOPE_FRONTDESK_KIOSK}` })
    await kiosk.signIn()
    // A kiosk's services join from the first-run screen and make the site's first administrator.
    await c.call('joinSite', { url: site.url, code: await pairingCode(), name: 'Side door' }, 'tab:first-run')
    expect(await c.call('createFirstAdmin', ADMIN)).toMatchObject({ role: 'admin', account: ADMIN.name })
  })

  /** What the engines logged of their 503s for the database (diagnosis). */
  const engineRefusals = () =>
    [1, 2]
      .flatMap((n) => {
        try {
          // The lines naming a 503's cause (server.ts sendError), not the request lines, nor the biometrics' own.
          return readFileSync(join(site.data, `engine-${n}`, 'logs', 'engine.log'), 'utf8').split('\n').filter((line) => line.includes('"status":503') && !line.includes('"msg":"request"') && !/biometrics/.test(line)).map((line) => `engine ${n}: ${line}`)
        } catch {
          return []
        }
      })
      .slice(-6)
      .join('\n')

  /** Every enrollment the site acknowledged, over every round: each must be there after each failover. */
  const acknowledged = new Map<string, string>()
  let next = 0

  /** Whether node `n`'s Patroni answers 200 on `path` of its REST API (false when it does not answer). */
  const patroniSays = async (n: number, path: '/sync' | '/primary') => {
    const ports = JSON.parse(readFileSync(join(site.data, 'ha', 'ports.json'), 'utf8')) as { nodes: { rest: number }[] }
    try {
      const reply = await request(`http://127.0.0.1:${ports.nodes[n - 1]!.rest}${path}`, { headersTimeout: 2_000, bodyTimeout: 2_000 })
      await reply.body.dump()
      return reply.statusCode === 200
    } catch {
      return false
    }
  }
  /** Node `n` is the synchronous standby (only that one may be promoted). */
  const synchronous = (n: number) => patroniSays(n, '/sync')

  /** Every enrollment the site acknowledged so far is in its database, once. */
  async function expectEveryAcknowledged() {
    const ids = [...acknowledged.keys()]
    for (let i = 0; i < ids.length; i += 8) {
      await Promise.all(
        ids.slice(i, i + 8).map(async (id) => {
          const stored = await front.call('GET', `/bioengine/persons/${id}/biometrics`)
          expect(stored.status, id).toBe(200)
          expect(stored.body.biometricInfos, id).toHaveLength(1)
        }),
      )
    }
  }

  /**
   * Clients through the front while a fault happens: two enrolling (a new person each time, waiting
   * after a 503), and the paired kiosk identifying (twice at once) and verifying what was
   * acknowledged (a 200 must name the right person, a verify score it as a match). Counts every status; anything but 201/200/503, a 503
   * without Retry-After, or no answer within the kiosk's timeout is `unexpected`.
   */
  function clientLoad() {
    const statuses = new Map<number, number>()
    const identifyStatuses = new Map<number, number>()
    const verifyStatuses = new Map<number, number>()
    const unexpected: string[] = []
    /** What the first refused reads said, for the record. */
    const refusals: string[] = []
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1)

    /** Enrollments as a client makes them: a new person each time, waiting after a 503. */
    const enroller = async () => {
      for (let i = 0; i < 2_000 && !load.stopped; i++) {
        const id = `ha-${next++}`
        const data = template()
        let reply: SiteReply
        try {
          reply = await front.call('POST', `/bioengine/persons/${id}/biometrics`, enrollBody(data), KIOSK_TIMEOUT_MS)
        } catch (error) {
          unexpected.push(`enroll ${id}: ${(error as Error).message}`)
          continue
        }
        count(reply.status)
        if (reply.status === 201) {
          acknowledged.set(id, data)
          load.acknowledgedHere++
          if (load.recovered) load.acknowledgedAfter++
        } else if (reply.status === 503) {
          if (!(Number(reply.headers['retry-after']) > 0)) unexpected.push(`enroll ${id}: 503 without Retry-After`)
          await new Promise((resolve) => setTimeout(resolve, 250))
        } else unexpected.push(`enroll ${id}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`)
      }
    }
    /**
     * Reads of what was acknowledged, as kiosks keep asking: identify (a 200 must name the right
     * person) or verify (a 200 must score the person's own template as a match); 503s are counted.
     */
    const reader = (kind: 'identify' | 'verify') => async () => {
      const counts = kind === 'identify' ? identifyStatuses : verifyStatuses
      for (let i = 0; i < 20_000 && !load.stopped; i++) {
        const known = [...acknowledged.entries()]
        if (known.length === 0) {
          await new Promise((resolve) => setTimeout(resolve, 50))
          continue
        }
        const [id, data] = known[(i * 7) % known.length]!
        try {
          const reply =
            kind === 'identify'
              ? await kiosk.call('POST', '/bioengine/identify', identifyBody(data), KIOSK_TIMEOUT_MS)
              : await kiosk.call('POST', `/bioengine/persons/${id}/verify`, verifyBody(data), KIOSK_TIMEOUT_MS)
          counts.set(reply.status, (counts.get(reply.status) ?? 0) + 1)
          const right = kind === 'identify' ? bestOf(reply) === id : reply.body?.allMatchResults?.[0]?.matchResults?.[0]?.score >= HUMAN_FACERES.scoreThreshold
          if (reply.status === 200 && !right) unexpected.push(`${kind} ${id}: ${JSON.stringify(reply.body).slice(0, 200)}`)
          else if (reply.status !== 200 && reply.status !== 503) unexpected.push(`${kind} ${id}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`)
          else if (reply.status === 503) {
            if (refusals.length < 5) refusals.push(`${kind} ${new Date().toISOString()}: ${JSON.stringify(reply.body).slice(0, 200)}`)
            await new Promise((resolve) => setTimeout(resolve, 100))
          }
        } catch (error) {
          unexpected.push(`${kind} ${id}: ${(error as Error).message}`)
        }
      }
    }
    const load = {
      statuses,
      identifyStatuses,
      verifyStatuses,
      unexpected,
      refusals,
      acknowledgedHere: 0,
      acknowledgedAfter: 0,
      /** Set once the fault is over: acknowledgements from then on count in acknowledgedAfter. */
      recovered: false,
      stopped: false,
      running: undefined as Promise<unknown> | undefined,
      async stop() {
        load.stopped = true
        await load.running
      },
    }
    load.running = Promise.all([enroller(), enroller(), reader('identify')(), reader('identify')(), reader('verify')()])
    return load
  }

  /**
   * One fault under an enroll and identify load through the front: the `victim` node's Patroni and
   * postmaster SIGKILLed together (its machine lost). Then: no 500, no hang, no 503 without
   * Retry-After; identify and verify never failed (the caches, and reads from the node still up);
   * every acknowledged enrollment is there; the victim comes back as a standby.
   */
  async function loseNode(victim: 'primary' | 'standby', duringFault?: () => Promise<void>) {
    await eventually('one primary and one standby', async () => [...nodesOf(site.output).values()].map((node) => node.role).sort().join() === 'primary,standby', { attempts: REJOIN_BOUND_MS / 250, everyMs: 250 })
    const before = [...nodesOf(site.output).values()]
    const lost = before.find((node) => node.role === victim)!
    const kept = before.find((node) => node.role !== victim)!
    const standby = victim === 'primary' ? kept : lost
    // A standby that is not (yet) synchronous may not be promoted: the fault waits for it to be.
    await eventually(`node ${standby.n} is the synchronous standby`, () => synchronous(standby.n), { attempts: 600, everyMs: 250, retryErrors: true })

    const load = clientLoad()
    const { statuses, identifyStatuses, verifyStatuses, unexpected, refusals } = load
    let killedAt = -1
    // What each engine says of itself meanwhile (GET /health/ready, past haproxy), from the kill on.
    const readiness = [new Set<string>(), new Set<string>()]
    let watching = true
    const watcher = (async () => {
      while (watching) {
        if (killedAt >= 0) {
          await Promise.all(
            [1, 2].map(async (n) => {
              const reply = await request(`${site.engine(n).url}/health/ready`, { headersTimeout: 5_000, bodyTimeout: 5_000 }).catch(() => undefined)
              const body = (await reply?.body.json().catch(() => undefined)) as { status?: string } | undefined
              readiness[n - 1]!.add(`${reply?.statusCode ?? 'no answer'} ${body?.status ?? ''}`)
            }),
          )
        }
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    })()
    try {
      await eventually('enrollments acknowledged before the kill', async () => load.acknowledgedHere >= 10, { attempts: 600, everyMs: 100 })
      killedAt = site.output.length
      process.kill(lost.patroniPid, 'SIGKILL')
      process.kill(lost.postgresPid, 'SIGKILL')
      // What else happens while the node is lost, from the moment it is.
      const during = duringFault?.()
      // Awaited below, after the failover: its failure is reported then, not as unhandled meanwhile.
      during?.catch(() => {})
      if (victim === 'primary') await site.lineAfter(killedAt, new RegExp(`^postgres primary is node ${kept.n}$`), FAILOVER_BOUND_MS)
      await during
      load.recovered = true
      await eventually('enrollments acknowledged after the fault', async () => load.acknowledgedAfter >= 4, { attempts: 1200, everyMs: 100 })
    } finally {
      await load.stop()
      watching = false
      await watcher
    }
    // What the fault cost the clients, for the record.
    console.log(`${victim} node ${lost.n} lost: enroll ${JSON.stringify(Object.fromEntries(statuses))}, identify ${JSON.stringify(Object.fromEntries(identifyStatuses))}, verify ${JSON.stringify(Object.fromEntries(verifyStatuses))}${refusals.map((r) => `\n  ${r}`).join('')}`)
    if (refusals.length > 0) console.log(engineRefusals())
    expect(unexpected).toEqual([])
    expect(statuses.get(500)).toBeUndefined()
    expect([...identifyStatuses.keys()]).toEqual([200])
    expect([...verifyStatuses.keys()]).toEqual([200])
    // The engines told the truth: stale (still sent requests) while there was no primary, never
    // out; ready throughout when only the standby was lost.
    for (const said of readiness) {
      expect([...said].filter((status) => status !== '200 ready' && status !== '200 stale')).toEqual([])
      expect(said.has('200 stale')).toBe(victim === 'primary')
    }
    if (victim === 'standby') expect(site.output.slice(killedAt).filter((line) => /^postgres primary is node/.test(line))).toEqual([])

    // Every acknowledged enrollment, of this round and the ones before, is there (synchronous replication).
    await expectEveryAcknowledged()

    // The lost node comes back (Patroni started again: pg_rewind or a fresh copy) as a standby.
    const rejoined = await site.lineAfter(killedAt, new RegExp(`^postgres node ${lost.n} .* standby$`), REJOIN_BOUND_MS)
    expect(Number(NODE_LINE.exec(rejoined[0])![3])).not.toBe(lost.patroniPid)
    expect(running(lost.postgresPid)).toBe(false)
    const after = nodesOf(site.output)
    expect(after.get(lost.n)?.role).toBe('standby')
    expect(after.get(kept.n)?.role).toBe('primary')
  }

  it("kiosks' services while the primary is lost: B identifies and verifies a visitor, A's enrollment is queued and C's staff check a visitor in, then each reaches the site once", async () => {
    const ana = await a.call('enrollVisitor', enrollVisitor(ANA_ID, ANA))
    expect(ana).toMatchObject({ outcome: 'enrolled', created: true })
    let queued: any
    let checkedIn: any
    await loseNode('primary', async () => {
      const [enrolled, identified, verified, checked] = await Promise.all([
        a.call('enrollVisitor', enrollVisitor(BO_ID, BO)),
        b.call('identifyVisitor', { sample: ANA_OTHER_PHOTO }),
        b.call('verifyVisitor', { userId: ANA_ID, sample: ANA_OTHER_PHOTO }),
        // A refusal names what C logged meanwhile (why it did not take the check-in on its copy).
        c.call('checkIn', { personUuid: ana.person.uuid, firstName: 'Ana' }).catch((error: Error) => {
          throw new Error(`${error.message}\nC logged: ${c.lines.slice(-8).join('\n')}`)
        }),
      ])
      queued = enrolled
      checkedIn = checked
      expect(identified).toMatchObject({ decision: 'match', candidates: [{ userId: ANA_ID }] })
      expect(verified).toMatchObject({ decision: 'match', person: { userId: ANA_ID } })
    })
    expect(queued).toMatchObject({ outcome: 'queued', reason: expect.stringMatching(/HTTP 503/) })
    const state = await a.outboxUntil((s) => s.counts.delivered === 1 && s.counts.queued === 0, 'delivered after the failover')
    expect(state.counts.needsAttention).toBe(0)
    expect(await front.tally(BO_ID)).toMatchObject({ persons: 1, templates: 1 })
    expect(await b.call('identifyVisitor', { sample: BO })).toMatchObject({ decision: 'match', candidates: [{ userId: BO_ID }] })
    // C let Ana in while the site could not record it; it pushes the act once the site takes writes again.
    expect(checkedIn).toMatchObject({ outcome: 'checked-in', greeting: 'Ana', offline: true })
    await eventually('C has no act left waiting', async () => (await c.call('getSiteSync'))?.waitingActs === 0, { attempts: 600, everyMs: 100 })
    const onSite = await c.call('listOnSite')
    expect(onSite.visits.filter((visit: { id: string }) => visit.id === checkedIn.visitId)).toHaveLength(1)
    expect(onSite.visits.filter((visit: { email: string }) => visit.email === ANA_ID)).toHaveLength(1)
  }, 420_000)

  it('the primary lost twice more, three times in a row with the kiosks\' round, alternating nodes: the standby takes over each time, no acknowledged write lost, no 500, no hang; the old node rejoins as standby', async () => {
    const first = [...nodesOf(site.output).values()].find((node) => node.role === 'primary')!.n
    for (let round = 0; round < 2; round++) await loseNode('primary')
    // Alternating: 1 → 2 → 1 (or the other way round), back to the node that was primary before these two.
    expect(nodesOf(site.output).get(first)?.role).toBe('primary')

    // A new write through the front, found by identify once both engines have applied it.
    const late = template()
    expect((await front.call('POST', '/bioengine/persons/after-failover/biometrics', enrollBody(late))).status).toBe(201)
    await eventually('the new enrollment found by identify through the front', async () => {
      const found = await front.call('POST', '/bioengine/identify', identifyBody(late))
      return found.status === 200 && bestOf(found) === 'after-failover'
    }, { attempts: 300, everyMs: 100 })
  }, 900_000)

  it('the standby lost: the primary keeps serving, no acknowledged write lost, and the standby rejoins', async () => {
    await loseNode('standby')
  }, 420_000)

  it('etcd away for 30 s (SIGSTOP): never two primaries; writes get 503 or succeed, never a 500 or a hang; a primary again once it is back', async () => {
    const etcdPid = Number(/^etcd pid (\d+)$/.exec(site.output.findLast((line) => /^etcd pid \d+$/.test(line))!)![1])
    const load = clientLoad()
    const twoPrimaries: string[] = []
    try {
      await eventually('enrollments acknowledged before etcd stops', async () => load.acknowledgedHere >= 10, { attempts: 600, everyMs: 100 })
      process.kill(etcdPid, 'SIGSTOP')
      try {
        // The fault lasts 30 s (the issue's), watched all along: at no moment may both nodes say they are primary.
        const until = Date.now() + 30_000
        while (Date.now() < until) {
          const [one, two] = await Promise.all([patroniSays(1, '/primary'), patroniSays(2, '/primary')])
          if (one && two) twoPrimaries.push(new Date().toISOString())
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
      } finally {
        process.kill(etcdPid, 'SIGCONT')
      }
      load.recovered = true
      await eventually('a primary again', async () => (await patroniSays(1, '/primary')) || (await patroniSays(2, '/primary')), { attempts: 1200, everyMs: 100 })
      await eventually('enrollments acknowledged after etcd is back', async () => load.acknowledgedAfter >= 4, { attempts: 1200, everyMs: 100 })
    } finally {
      await load.stop()
    }
    console.log(`etcd stopped 30 s: enroll ${JSON.stringify(Object.fromEntries(load.statuses))}, identify ${JSON.stringify(Object.fromEntries(load.identifyStatuses))}, verify ${JSON.stringify(Object.fromEntries(load.verifyStatuses))}${load.refusals.map((r) => `\n  ${r}`).join('')}`)
    if (load.refusals.length > 0) console.log(engineRefusals())
    expect(twoPrimaries).toEqual([])
    expect(load.unexpected).toEqual([])
    expect(load.statuses.get(500)).toBeUndefined()
    await expectEveryAcknowledged()
  }, 420_000)
})
