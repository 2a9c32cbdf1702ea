import Database from 'better-sqlite3'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openAuditLog, type AuditEntryInput, type AuditLog } from '../../electron/services/audit'
import { projectRoot } from '../support/process'

// The audit trail store on real SQLite files: an unforked hash chain that names the first entry
// changed or removed, durable through SIGKILL, and free of images.
const dirs: string[] = []
const logs: AuditLog[] = []
const newDir = () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'kiosk-audit-')), 'data')
  dirs.push(dir)
  return dir
}
const open = (dir: string, now?: () => number) => {
  const log = openAuditLog({ dir, kioskId: 'kiosk-1', ...(now ? { now } : {}) })
  logs.push(log)
  return log
}
const act = (i: number, extra: Partial<AuditEntryInput> = {}): AuditEntryInput => ({
  action: i % 3 === 0 ? 'enroll' : 'verify',
  outcome: 'ok',
  role: i % 5 === 0 ? 'operator' : 'visitor',
  account: i % 5 === 0 ? 'desk-1' : null,
  subject: { userId: `v${i % 7}@example.org`, personUuid: `00000000-0000-4000-8000-${String(i % 7).padStart(12, '0')}` },
  score: i / 10,
  detail: `act ${i}`,
  ...extra,
})
/** Changes the database file behind the log's back, as someone with the file would. */
const tamper = (dir: string, sql: string) => {
  const db = new Database(join(dir, 'audit.db'))
  db.exec('DROP TRIGGER IF EXISTS entries_append_only_update; DROP TRIGGER IF EXISTS entries_append_only_delete;')
  db.exec(sql)
  db.close()
}

afterEach(() => {
  for (const log of logs.splice(0)) log.close()
  for (const dir of dirs.splice(0)) rmSync(join(dir, '..'), { recursive: true, force: true })
})

describe('audit store', () => {
  it('appends a verifiable chain, private to its user, and finds entries by date, action, person and account', () => {
    let clock = 1_000
    const dir = newDir()
    const log = open(dir, () => (clock += 10))
    for (let i = 0; i < 200; i++) log.append(act(i))
    expect(log.verify()).toEqual({ ok: true, entries: 200, firstBadSeq: null, reason: null })
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    expect(statSync(join(dir, 'audit.db')).mode & 0o777).toBe(0o600)

    expect(log.query({ limit: 3 }).map((e) => e.seq)).toEqual([200, 199, 198])
    expect(log.query({ limit: 2, beforeSeq: 198 }).map((e) => e.seq)).toEqual([197, 196])
    expect(log.query({ actions: ['enroll'], limit: 1000 })).toHaveLength(67)
    expect(log.query({ userId: 'V3@example.org', limit: 1000 }).every((e) => e.subject?.userId === 'v3@example.org')).toBe(true)
    expect(log.query({ account: 'desk-1', limit: 1000 })).toHaveLength(40)
    expect(log.query({ from: 1_000 + 10 * 50, to: 1_000 + 10 * 59, limit: 1000 }).map((e) => e.seq)).toEqual([59, 58, 57, 56, 55, 54, 53, 52, 51, 50])
    // Act i is entry i + 1: the newest act with person …002 is act 198.
    expect(log.query({ personUuid: '00000000-0000-4000-8000-000000000002', limit: 1 })[0]).toMatchObject({ seq: 199, role: 'visitor', kioskId: 'kiosk-1' })
  })

  it('names the first entry changed or removed in the file', () => {
    const dir = newDir()
    const log = open(dir)
    for (let i = 0; i < 30; i++) log.append(act(i))
    tamper(dir, "UPDATE entries SET detail = 'nothing happened' WHERE seq = 17")
    expect(log.verify()).toMatchObject({ ok: false, firstBadSeq: 17, reason: 'entry 17 was changed after it was written' })
    expect(open(dir).startVerdict).toMatchObject({ ok: false, firstBadSeq: 17 })

    const other = newDir()
    const second = open(other)
    for (let i = 0; i < 30; i++) second.append(act(i))
    tamper(other, 'DELETE FROM entries WHERE seq = 12')
    expect(second.verify()).toMatchObject({ ok: false, firstBadSeq: 13, reason: 'entry 13 does not follow entry 11' })
  })

  it('refuses edits and deletions through SQL, and anything that looks like an image', () => {
    const dir = newDir()
    const log = open(dir)
    log.append(act(1))
    const db = new Database(join(dir, 'audit.db'))
    expect(() => db.exec("UPDATE entries SET detail = 'x'")).toThrow(/append-only/)
    expect(() => db.exec('DELETE FROM entries')).toThrow(/append-only/)
    db.close()
    const jpeg = readFileSync(join(projectRoot, 'node_modules/@vladmandic/face-api/demo/sample1.jpg')).toString('base64')
    expect(() => log.append(act(2, { detail: jpeg.slice(0, 200) }))).toThrow(/image/)
    expect(() => log.append(act(2, { subject: { userId: jpeg.slice(0, 400) } }))).toThrow(/longer than/)
    expect(log.verify()).toMatchObject({ ok: true, entries: 1 })
    const bytes = readFileSync(join(dir, 'audit.db'))
    expect(bytes.includes(Buffer.from([0xff, 0xd8, 0xff]))).toBe(false)
    expect(bytes.includes(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBe(false)
  })

  it('prunes what is older than the retention and keeps the rest verifiable', () => {
    const day = 86_400_000
    let clock = 0
    const dir = newDir()
    const log = open(dir, () => clock)
    for (let i = 0; i < 10; i++) {
      clock = i * day
      log.append(act(i))
    }
    clock = 12 * day
    expect(log.prune(clock, 5)).toBe(7) // days 0–6 are older than 5 days before day 12
    const verdict = log.verify()
    expect(verdict).toMatchObject({ ok: true, entries: 4 }) // days 7–9, and the prune's own entry
    expect(log.query({ actions: ['audit-prune'] })[0]).toMatchObject({ detail: '7 entries older than 5 days removed' })
    expect(log.append(act(99)).seq).toBe(12)
    expect(open(dir).startVerdict).toMatchObject({ ok: true, entries: 5 })
  })

  it('keeps one unforked chain when two processes append to the same file', () => {
    const dir = newDir()
    const [a, b] = [open(dir), open(dir)]
    for (let i = 0; i < 50; i++) (i % 2 ? a : b).append(act(i))
    expect(a.verify()).toMatchObject({ ok: true, entries: 50 })
    expect(b.query({ limit: 1000 }).map((e) => e.seq)).toEqual(Array.from({ length: 50 }, (_, i) => 50 - i))
  })

  it('exports the same rows as CSV (RFC 4180 quoting) and JSON', () => {
    const log = open(newDir())
    log.append(act(1, { detail: 'said "no", then\nleft' }))
    log.append(act(2))
    const csv = log.exportCsv({})
    const lines = csv.split('\r\n')
    expect(lines[0]).toBe('seq,time,kioskId,action,outcome,role,account,userId,personUuid,outboxId,score,detail,correlationId,hash')
    expect(csv).toContain('"said ""no"", then\nleft"')
    expect(JSON.parse(log.exportJson({})).map((e: { seq: number }) => e.seq)).toEqual([2, 1])
  })

  it('loses no confirmed entry and leaves a valid chain when its process is SIGKILLed mid-burst', async () => {
    const dir = newDir()
    open(dir).close() // create it first, so the children race only on appends
    const confirmed = new Set<number>()
    for (let round = 0; round < 5; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/audit-child.ts', dir, '100000'], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'inherit'] })
      let buffered = ''
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          buffered += chunk.toString()
          const lines = buffered.split('\n')
          buffered = lines.pop() ?? ''
          for (const line of lines) {
            if (line === 'ready') setTimeout(() => child.kill('SIGKILL'), 20 + Math.floor(Math.random() * 250))
            const match = /^seq (\d+)$/.exec(line)
            if (match) confirmed.add(Number(match[1]))
          }
        })
        child.once('exit', () => resolve())
        child.once('error', reject)
      })
    }
    expect(open(dir).startVerdict.ok).toBe(true)
    const db = new Database(join(dir, 'audit.db'), { readonly: true })
    const present = new Set((db.prepare('SELECT seq FROM entries').all() as Array<{ seq: number }>).map((r) => r.seq))
    db.close()
    // Every seq a process printed (after its append returned) is there.
    expect(confirmed.size).toBeGreaterThan(0)
    expect([...confirmed].filter((seq) => !present.has(seq))).toEqual([])
  })
})
