import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { Agent, request } from 'undici'
import { createFrontDesk } from '../../../electron/records/frontdesk/create-front-desk'
import type { FrontDesk } from '../../../electron/records/frontdesk/front-desk'
import { openLocalFrontDesk } from '../../../electron/records/frontdesk/local'
import { openPostgres } from '../../../electron/records/sql/postgres'
import { openSiteCopy } from '../../../electron/services/site/site-copy'
import { siteSync } from '../../../electron/services/site/site-sync'
import { FRONTDESK_PREFIX, SCOPE_FRONTDESK_KIOSK } from '../../../electron/shared/frontdesk-api'
import { siteConnection } from '../../support/site-connection'
import type { FreshKiosk } from '../../support/site-kiosk'
import { latency, type Latency } from '../lib/stats'

/**
 * The site's visits measured (beside the watchlist rounds in frontdesk.ts): a returning visitor
 * crossing doors, the evacuation list of a busy site, and many kiosks checking in at once.
 */

/** checkInByFace at `kiosk` then checkOutByFace, `rounds` times; the check-in's times. */
export async function faceCheckIns(kiosk: FreshKiosk, sample: string, rounds: number, tag: string): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < rounds; i++) {
    const started = performance.now()
    const inside = await kiosk.call('checkInByFace', { sample }, 'tab:visitor')
    times.push(performance.now() - started)
    if (inside.outcome !== 'checked-in' || inside.alreadyOnSite) throw new Error(`${tag} round ${i}: checkInByFace answered ${JSON.stringify(inside)}`)
    const out = await kiosk.call('checkOutByFace', { sample }, 'tab:visitor')
    if (out.outcome !== 'checked-out') throw new Error(`${tag} round ${i}: checkOutByFace answered ${JSON.stringify(out)}`)
  }
  return times
}

/** `count` open visits spread over `kiosks` kiosk ids, stored through the front desk's own rules. */
async function seedVisits(desk: FrontDesk, kioskIds: readonly (string | null)[], count: number, batch = 50): Promise<void> {
  for (let n = 0; n < count; n += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, count - n) }, (_, i) =>
        desk.checkIn({
          person: { personUuid: randomUUID(), email: `visitor${n + i}@evacuation-bench.example`, firstName: `Visitor ${n + i}` },
          hostId: null,
          purpose: 'Benchmark',
          inviteToken: null,
          asLastTime: false,
          kioskId: kioskIds[(n + i) % kioskIds.length]!,
        }),
      ),
    )
  }
}

/** Puts `people` on the site through `kiosks` paired kiosks (the site's database, as its engines write it). */
export async function seedSite(databaseUrl: string, kiosks: number, people: number): Promise<void> {
  const db = await openPostgres({ url: databaseUrl, maxConnections: 8 })
  try {
    const desk = createFrontDesk(db)
    const ids: string[] = []
    for (let k = 0; k < kiosks; k++) {
      const { code } = await desk.createPairingCode('bench')
      ids.push((await desk.redeemPairingCode(code, `Door ${k + 1}`)).id)
    }
    await seedVisits(desk, ids, people)
  } finally {
    await db.close()
  }
}

/** Puts `people` on the site of a kiosk on its own, in its frontdesk.db (beside the running kiosk, as a second process would). */
export async function seedOwnKiosk(dataDir: string, people: number): Promise<void> {
  const local = await openLocalFrontDesk({ dataDir })
  try {
    await seedVisits(local.frontDesk, [null], people)
  } finally {
    await local.close()
  }
}

/** listOnSite at `kiosk`'s staff window, `rounds` times: the evacuation list ready to print. */
export async function evacuationLists(kiosk: FreshKiosk, rounds: number, expected: number): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < rounds; i++) {
    const started = performance.now()
    const { visits } = await kiosk.call('listOnSite', {}, 'tab:staff')
    times.push(performance.now() - started)
    if (visits.length < expected) throw new Error(`the evacuation list had ${visits.length} people, not at least ${expected}`)
  }
  return times
}

/** A kiosk of the site as the load sees it: its own client's token, used for check-ins by HTTP. */
export interface SimulatedKiosk {
  token: string
}

/** Pairs `count` simulated kiosks with the site (codes from its database, pairing and tokens by HTTP). */
export async function simulatedKiosks(siteUrl: string, databaseUrl: string, count: number, dispatcher: Agent): Promise<SimulatedKiosk[]> {
  const db = await openPostgres({ url: databaseUrl, maxConnections: 1 })
  const codes: string[] = []
  try {
    const desk = createFrontDesk(db)
    for (let i = 0; i < count; i++) codes.push((await desk.createPairingCode('bench')).code)
  } finally {
    await db.close()
  }
  const kiosks: SimulatedKiosk[] = []
  for (const [i, code] of codes.entries()) {
    const paired = await request(`${siteUrl}${FRONTDESK_PREFIX}/pair`, { method: 'POST', dispatcher, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, name: `Simulated ${i + 1}` }) })
    if (paired.statusCode !== 200) throw new Error(`pairing simulated kiosk ${i + 1}: ${paired.statusCode} ${await paired.body.text()}`)
    const { clientId, clientSecret } = (await paired.body.json()) as { clientId: string; clientSecret: string }
    const scope = encodeURIComponent(`SCOPE_TENANT_ADMIN ${SCOPE_FRONTDESK_KIOSK}`)
    const issued = await request(`${siteUrl}/v2/oauth2/oauth/token?grant_type=client_credentials&scope=${scope}`, {
      method: 'POST',
      dispatcher,
      headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    })
    if (issued.statusCode !== 200) throw new Error(`a token for simulated kiosk ${i + 1}: ${issued.statusCode} ${await issued.body.text()}`)
    kiosks.push({ token: ((await issued.body.json()) as { access_token: string }).access_token })
  }
  return kiosks
}

export interface LoadResult {
  checkIn: Latency
  checkIns: number
  errors: number
  /** The first few errors, as status and body. */
  samples: string[]
}

/**
 * Every kiosk checks a new visitor in and out, over and over, all at once, for `durationMs`: the
 * check-in's latency and every answer that was not a success.
 */
export async function checkInLoad(siteUrl: string, kiosks: readonly SimulatedKiosk[], durationMs: number, dispatcher: Agent): Promise<LoadResult> {
  const times: number[] = []
  const samples: string[] = []
  let errors = 0
  const until = performance.now() + durationMs
  const call = async (kiosk: SimulatedKiosk, path: string, body?: unknown): Promise<boolean> => {
    const reply = await request(`${siteUrl}${FRONTDESK_PREFIX}${path}`, {
      method: 'POST',
      dispatcher,
      headers: { authorization: `Bearer ${kiosk.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await reply.body.text()
    if (reply.statusCode === 200) return true
    errors++
    if (samples.length < 5) samples.push(`${path.split('/').slice(0, 3).join('/')}: ${reply.statusCode} ${text.slice(0, 200)}`)
    return false
  }
  await Promise.all(
    kiosks.map(async (kiosk, k) => {
      for (let n = 0; performance.now() < until; n++) {
        const personUuid = randomUUID()
        const started = performance.now()
        const ok = await call(kiosk, '/visits/check-in', { person: { personUuid, email: `k${k}v${n}@load-bench.example`, firstName: null }, hostId: null, purpose: 'Load', inviteToken: null, asLastTime: false })
        times.push(performance.now() - started)
        if (ok) await call(kiosk, `/visits/check-out/${personUuid}`)
      }
    }),
  )
  return { checkIn: latency(times), checkIns: times.length, errors, samples }
}


/** What a kiosk that was away hands its site when it is back: its acts applied, and whether each was applied once. */
export interface OfflineActsResult {
  /** sync() at the kiosk (push every act, then pull), ms. */
  ms: number
  applied: number
  duplicates: number
}

/**
 * `count` acts made while a kiosk was away (queued in its copy, the site unreachable), then the
 * kiosk back: one sync (site/site-sync.ts, as kiosk-services runs it) pushes them all. The acts are
 * a visitor's check-in and check-out in turn, each visitor a new person the site knows by id; the
 * site's visits are then counted: one per check-in, each ended once by its check-out.
 */
export async function offlineActs(siteUrl: string, databaseUrl: string, kiosk: SimulatedKiosk, count: number): Promise<OfflineActsResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-bench-acts-'))
  const site = `site|${siteUrl}`
  const copy = openSiteCopy({ dataDir, key: randomBytes(32) })
  const connection = siteConnection(siteUrl, kiosk.token, { connectTimeoutMs: 5000, requestTimeoutMs: 60_000 })
  const sync = siteSync({ openCopy: async () => copy, siteId: async () => site, connection: async () => connection, log: () => undefined, intervalMs: 3_600_000 })
  try {
    copy.useSite(site)
    const persons: string[] = []
    const at = Date.now()
    for (let i = 0; i + 1 < count; i += 2) {
      const person = { personUuid: randomUUID(), email: `away${i}@acts-bench.example`, firstName: null }
      persons.push(person.personUuid)
      const checkIn = copy.queue({ kind: 'check-in', args: { person, hostId: null, purpose: 'Benchmark: checked in while away', asLastTime: false } }, at + i)
      copy.queue({ kind: 'check-out', args: { visitId: checkIn.id, person: { personUuid: person.personUuid, email: person.email } } }, at + i + 1)
    }
    const started = performance.now()
    await sync.sync()
    const ms = performance.now() - started
    if (copy.counts().waitingActs !== 0) throw new Error(`${copy.counts().waitingActs} acts still wait after the sync`)
    const db = await openPostgres({ url: databaseUrl, maxConnections: 1 })
    try {
      // A check-in applied twice would be a second visit of its person; a check-out applied, its visit ended.
      const row = await db.get<{ n: number; persons: number; ended: number }>(
        'SELECT count(*)::int AS n, count(DISTINCT person_uuid)::int AS persons, count(checked_out_at)::int AS ended FROM visits WHERE person_uuid = ANY(?)',
        [persons],
      )
      const n = row?.n ?? 0
      return { ms, applied: (row?.persons ?? 0) + (row?.ended ?? 0), duplicates: n - (row?.persons ?? 0) }
    } finally {
      await db.close()
    }
  } finally {
    await sync.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
