import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import Database from 'better-sqlite3'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Visit } from '../../electron/shared/visits'
import type { WatchlistEntry } from '../../electron/shared/watchlist'
import type { KioskDesk, StaffDesk } from '../../electron/services/front-desk/desk'
import { openSiteCopy, SITE_COPY_FILE } from '../../electron/services/site/site-copy'
import { siteDesk } from '../../electron/services/site/site-desk'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { projectRoot } from '../support/process'
import { fd, pair, post, type PairedKiosk } from '../support/paired-kiosk'
import { siteConnection } from '../support/site-connection'

/**
 * A site kiosk SIGKILLed at random points while it pushes its acts and pulls the site's changes: a
 * real engine (SQLite) in this process as the site, and the kiosk as test/support/site-sync-child.ts
 * processes, one after another on one copy (site-copy.db, one key), each queueing watchlist-alert
 * acts and syncing while this process changes the site's watchlist and visits, until it is killed.
 * Then one more runs until nothing waits, and the site and the copy are compared.
 */

const random = (max: number) => Math.floor(Math.random() * max)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const person = (tag: string) => ({ personUuid: randomUUID(), email: `${tag}-${randomBytes(4).toString('hex')}@example.com`, firstName: tag })

const connection = (baseUrl: string, token: string) => siteConnection(baseUrl, token, { connectTimeoutMs: 5_000, requestTimeoutMs: 30_000 })

/** An act a child printed: in its copy's file when printed. */
interface Printed {
  id: string
  seq: number
  personUuid: string
  round: number
}

/** Where a round's child is killed: `delayMs` after the `nth` line matching `on`. */
interface Kill {
  on: RegExp
  nth: number
  delayMs: number
  /** The child stops dead after its first push (or pull) reply, before it uses it. */
  hold?: 'push' | 'pull'
}

describe('a site kiosk SIGKILLed while it syncs', () => {
  let engine: TestEngine
  let lobby: PairedKiosk
  let annexDesk: KioskDesk
  let admin: StaffDesk
  const folders: string[] = []
  const children = new Set<ChildProcess>()

  beforeAll(async () => {
    const siteDir = mkdtempSync(join(tmpdir(), 'kiosk-sync-kill-site-'))
    folders.push(siteDir)
    engine = await startTestEngine([], siteDir, { tenant: TEST_TENANT })
    // Lobby is the kiosk killed again and again; Annex and its staff change the site meanwhile.
    lobby = await pair(engine, 'Lobby')
    const annex = await pair(engine, 'Annex')
    const adminSession = (await post(engine.url, fd('/staff/first-admin'), { name: 'Ada Admin', secret: 'admin-secret-1' }, annex.token)).body.session as string
    const annexConnection = connection(engine.url, annex.token)
    annexDesk = siteDesk(`site|${engine.url}`, async () => annexConnection)
    admin = annexDesk.as({ token: adminSession, account: 'Ada Admin' })
  })

  // Every child this file started, by its pid, whatever happened.
  afterEach(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGKILL')
  })

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGKILL')
    await engine?.close()
    for (const folder of folders) rmSync(folder, { recursive: true, force: true })
  })

  it('loses no act and applies none twice, and its copy converges with the site', async () => {
    const started = Date.now()
    const kioskDir = mkdtempSync(join(tmpdir(), 'kiosk-sync-kill-kiosk-'))
    folders.push(kioskDir)
    const keyHex = randomBytes(32).toString('hex')
    const env = { ...process.env, SITE_SYNC_KEY: keyHex, SITE_SYNC_TOKEN: lobby.token }
    const printed: Printed[] = []
    const report: string[] = []

    /**
     * One child on the copy. With `kill`, SIGKILLed `kill.delayMs` after its `kill.nth` line
     * matching `kill.on` (a run never ends by itself before 500 batches: it ending otherwise fails
     * the round); without, it runs to its end. Resolves once its output is all read.
     */
    const runChild = (round: number, mode: 'run' | 'drain', kill: Kill | null) =>
      new Promise<{ lines: string[]; killed: boolean }>((resolve, reject) => {
        const args = ['--import', 'tsx', 'test/support/site-sync-child.ts', mode, kioskDir, engine.url, ...(kill?.hold ? [kill.hold] : [])]
        const child = spawn(process.execPath, args, { cwd: projectRoot, env, stdio: ['pipe', 'pipe', 'pipe'] })
        children.add(child)
        const lines: string[] = []
        let seen = 0
        let killing = false
        // Only against a hang (the child's own bound is 500 batches): nothing asserts on time.
        const guard = setTimeout(() => child.kill('SIGKILL'), 300_000)
        createInterface({ input: child.stderr! }).on('line', (line) => lines.push(`stderr: ${line}`))
        createInterface({ input: child.stdout! }).on('line', (line) => {
          lines.push(line)
          const queued = /^queued (\S+) (\d+) (\S+)$/.exec(line)
          if (queued) printed.push({ id: queued[1]!, seq: Number(queued[2]), personUuid: queued[3]!, round })
          if (kill && !killing && kill.on.test(line) && ++seen === kill.nth) {
            killing = true
            setTimeout(() => child.pid !== undefined && child.exitCode === null && process.kill(child.pid, 'SIGKILL'), kill.delayMs)
          }
        })
        child.once('error', reject)
        // 'close': the process ended and its stdout and stderr are read to their end.
        child.once('close', (code, signal) => {
          clearTimeout(guard)
          children.delete(child)
          if (kill ? signal === 'SIGKILL' && killing : code === 0) resolve({ lines, killed: signal === 'SIGKILL' })
          else reject(new Error(`child ${mode} (round ${round}) ended with ${code ?? signal}${kill ? ` before its kill on ${kill.on.source} #${kill.nth}` : ''}:\n${lines.slice(-60).join('\n')}`))
        })
      })

    /** The copy's file as a killed child left it: its waiting acts' seqs and its last seq (plain columns; no key needed). */
    const copyFile = () => {
      const db = new Database(join(kioskDir, SITE_COPY_FILE), { readonly: true })
      try {
        const waiting = (db.prepare('SELECT seq FROM copy_acts ORDER BY seq').all() as Array<{ seq: number }>).map((r) => r.seq)
        const { last_seq: lastSeq, cookie } = db.prepare('SELECT last_seq, cookie FROM copy_state WHERE id = 1').get() as { last_seq: number; cookie: number }
        return { waiting, lastSeq, cookie }
      } finally {
        db.close()
      }
    }
    const siteLastSeq = async () => (await engine.engine.ctx.store.db.get<{ last_seq: number }>('SELECT last_seq FROM kiosk_mutations WHERE kiosk_id = ?', [lobby.kioskId]))?.last_seq ?? 0

    // The site changes while the kiosk syncs: the watchlist and visits (through Annex and its staff), and now and then its change log is pruned (the next pull is a whole copy).
    const listed = new Set<string>()
    const onSite = new Set<string>()
    const changes = { listed: 0, unlisted: 0, checkedIn: 0, checkedOut: 0, pruned: 0 }
    let churning = true
    let churnError: unknown = null
    const churn = (async () => {
      while (churning) {
        const roll = random(40)
        if (random(120) === 0) {
          await engine.engine.ctx.frontDesk.pruneChanges(0)
          changes.pruned++
        } else if (roll < 12 && (listed.size < 4 || random(3))) {
          const p = person('listed')
          await admin.addToWatchlist({ personUuid: p.personUuid, email: p.email, reason: 'Listed while the kiosk syncs' })
          listed.add(p.personUuid)
          changes.listed++
        } else if (roll < 18 && listed.size > 0) {
          const uuid = [...listed][random(listed.size)]!
          expect(await admin.removeFromWatchlist(uuid)).toBe(true)
          listed.delete(uuid)
          changes.unlisted++
        } else if (roll < 30 && (onSite.size < 4 || random(3))) {
          const p = person('visitor')
          const outcome = await annexDesk.checkIn({ person: p, hostId: null, purpose: 'Meeting', inviteToken: null, asLastTime: false })
          expect(outcome.outcome).toBe('checked-in')
          onSite.add(p.personUuid)
          changes.checkedIn++
        } else if (onSite.size > 0) {
          const uuid = [...onSite][random(onSite.size)]!
          // The site checks out by the person id; the e-mail is for a kiosk that knows a visitor by e-mail alone.
          expect(await annexDesk.checkOut({ personUuid: uuid, email: 'unused@example.com' })).toMatchObject({ personUuid: uuid })
          onSite.delete(uuid)
          changes.checkedOut++
        }
        await sleep(random(15))
      }
    })().catch((error: unknown) => {
      churnError = error
    })

    // The kill points: where a kill leaves the site with acts the copy still has waiting (held after a
    // push reply), a pull reply never applied (held after it), and at random lines of the run.
    const ROUNDS = 24
    const plan: Kill[] = []
    for (let i = 0; i < 3; i++) plan.push({ on: /^holding push$/, nth: 1, delayMs: random(10), hold: 'push' })
    for (let i = 0; i < 3; i++) plan.push({ on: /^holding pull$/, nth: 1, delayMs: random(10), hold: 'pull' })
    const randomPoints: Array<[RegExp, number]> = [
      [/^queued /, 6],
      [/^push-sent /, 3],
      [/^push-replied /, 2],
      [/^pull-sent /, 3],
      [/^pull-replied /, 2],
      [/^synced /, 3],
    ]
    while (plan.length < ROUNDS) {
      const [on, most] = randomPoints[random(randomPoints.length)]!
      plan.push({ on, nth: 1 + random(most), delayMs: random(25) })
    }
    for (let i = plan.length - 1; i > 0; i--) {
      const j = random(i + 1)
      ;[plan[i], plan[j]] = [plan[j]!, plan[i]!]
    }

    const pulls = { reset: 0, changes: 0 }
    const countPulls = (lines: string[]) => {
      for (const line of lines) {
        const pulled = /^pull-replied 200 (reset|changes) /.exec(line)
        if (pulled) pulls[pulled[1] as 'reset' | 'changes']++
      }
    }
    let appliedNotAcknowledged = 0
    let killedWithActsWaiting = 0
    let killedRounds = 0
    try {
      for (const [round, kill] of plan.entries()) {
        const before = printed.length
        const { lines, killed } = await runChild(round, 'run', kill)
        countPulls(lines)
        if (killed) killedRounds++
        // The site may still be applying a push the killed child sent; this is only for the report.
        const file = copyFile()
        const site = await siteLastSeq()
        const early = file.waiting.filter((seq) => seq <= site).length
        if (file.waiting.length > 0) killedWithActsWaiting++
        if (early > 0) appliedNotAcknowledged++
        report.push(
          `round ${round}: ${kill.hold ? `hold ${kill.hold}, ` : ''}killed ${kill.delayMs} ms after ${kill.on.source} #${kill.nth}; ${printed.length - before} acts printed; copy last seq ${file.lastSeq}, ${file.waiting.length} waiting (${early} of them applied at the site), cookie ${file.cookie}; site last seq ${site}`,
        )
      }
    } finally {
      churning = false
      await churn
    }
    if (churnError) throw churnError

    // No more changes at the site: a last kiosk process syncs until nothing waits, not killed.
    const { lines } = await runChild(ROUNDS, 'drain', null)
    countPulls(lines)
    const drained = /^drained (\{.*\}) (\d+)$/.exec(lines.at(-1) ?? '')
    expect(drained, lines.slice(-20).join('\n')).not.toBeNull()
    report.push(lines.at(-1)!)

    // What the site has.
    const alerts = await engine.engine.ctx.store.db.all<{ id: string; person_uuid: string }>('SELECT id, person_uuid FROM watchlist_alerts WHERE kiosk_id = ?', [lobby.kioskId])
    const alertById = new Map(alerts.map((a) => [a.id, a]))
    const lastAtSite = await siteLastSeq()
    // What the copy has (opened as the kiosk opens it, with its key).
    const copy = openSiteCopy({ dataDir: kioskDir, key: Buffer.from(keyHex, 'hex') })
    let copied: { watchlist: WatchlistEntry[]; visits: Visit[]; waitingActs: number }
    try {
      copied = { watchlist: copy.watchlist(), visits: copy.openVisits(), waitingActs: copy.counts().waitingActs }
    } finally {
      copy.close()
    }
    const file = copyFile()

    // Each printed act once: its own id and seq, never printed twice by the children.
    expect(new Set(printed.map((p) => p.id)).size).toBe(printed.length)
    expect(new Set(printed.map((p) => p.seq)).size).toBe(printed.length)
    // No act lost: every act a child printed is an alert at the site, for its person.
    const missing = printed.filter((p) => !alertById.has(p.id))
    expect(missing, 'printed acts the site does not have').toEqual([])
    for (const p of printed) expect(alertById.get(p.id)!.person_uuid, p.id).toBe(p.personUuid.toLowerCase())
    // None applied twice: one alert per id, and per person (each act named a new person, so an act
    // applied again under another id would show as a second alert for its person).
    expect(new Set(alerts.map((a) => a.id)).size).toBe(alerts.length)
    expect(new Set(alerts.map((a) => a.person_uuid)).size).toBe(alerts.length)
    // Every act the copy ever committed (printed or not: a kill can land between the commit and the
    // print) applied exactly once: seqs 1..last, one alert each.
    expect(lastAtSite).toBe(file.lastSeq)
    expect(alerts.length).toBe(file.lastSeq)
    expect(copied.waitingActs).toBe(0)
    expect(file.waiting).toEqual([])

    // Converged: the copy's watchlist and open visits are what the site sends a new kiosk (cookie 0).
    const whole = await engine.engine.ctx.frontDesk.syncPull(lobby.kioskId, 0)
    expect(whole.reset).toBe(true)
    expect(whole.lastMutationSeq).toBe(lastAtSite)
    const siteWatchlist = whole.ops.flatMap((op) => (op.topic === 'watchlist' && op.value ? [op.value] : []))
    const siteVisits = whole.ops.flatMap((op) => (op.topic === 'visit' && op.value ? [op.value] : []))
    const byPerson = (a: WatchlistEntry, b: WatchlistEntry) => (a.personUuid < b.personUuid ? -1 : 1)
    const byId = (a: Visit, b: Visit) => (a.id < b.id ? -1 : 1)
    expect(copied.watchlist.map((e) => e.personUuid).sort()).toEqual(siteWatchlist.map((e) => e.personUuid).sort())
    expect(copied.visits.map((v) => v.id).sort()).toEqual(siteVisits.map((v) => v.id).sort())
    expect([...copied.watchlist].sort(byPerson)).toEqual([...siteWatchlist].sort(byPerson))
    expect([...copied.visits].sort(byId)).toEqual([...siteVisits].sort(byId))
    // And the site is what this test made it.
    expect(siteWatchlist.map((e) => e.personUuid).sort()).toEqual([...listed].sort())
    expect(siteVisits.map((v) => v.personUuid).sort()).toEqual([...onSite].sort())

    expect(killedRounds).toBe(ROUNDS)
    // The window that matters was hit: killed with acts the site had applied still waiting here (each held push at least).
    expect(appliedNotAcknowledged).toBeGreaterThanOrEqual(3)
    expect(printed.length).toBeGreaterThanOrEqual(ROUNDS)
    console.log(
      [
        `site sync SIGKILL: ${ROUNDS} rounds, all killed, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
        `  acts: ${printed.length} printed, ${file.lastSeq} committed in the copy, ${alerts.length} alerts at the site, site last seq ${lastAtSite}`,
        `  kills with acts waiting: ${killedWithActsWaiting}; with acts the site had applied still waiting in the copy: ${appliedNotAcknowledged}`,
        `  site changes: ${JSON.stringify(changes)}; at the end ${siteWatchlist.length} listed, ${siteVisits.length} on site`,
        `  pull replies the kiosk got: ${pulls.changes} of changes, ${pulls.reset} whole copies`,
        ...report.map((line) => `  ${line}`),
      ].join('\n'),
    )
  }, 900_000)
})
