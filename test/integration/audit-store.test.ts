import Database from 'better-sqlite3'
import fc from 'fast-check'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openAuditLog, type AuditEntry, type AuditEntryInput, type AuditLog } from '../../electron/services/audit'
import { PREVIOUS_FORMAT_LISTED, auditActions, auditOutcomes, auditRoles, auditVerdictSchema } from '../../electron/shared/audit'
import { appendAsOlderKiosk } from '../support/older-audit-trail'
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
    expect(log.verify()).toEqual({ ok: true, entries: 200, firstBadSeq: null, reason: null, previousFormat: { entries: 0, seqs: [] } })
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

// What an entry reads back as, written out here from the rules (not from the store's code): a
// subject with nothing in it is no subject; absent, undefined and empty subject fields alike are not
// said; a text as SQLite keeps it (UTF-8: each lone surrogate half becomes U+FFFD); a score is a
// finite number (-0 as 0) or null.
const wellFormed = (value: string) => (value as string & { toWellFormed(): string }).toWellFormed()
const textOrNull = (value: string | null | undefined) => (value === null || value === undefined ? null : wellFormed(value))
function readBack(input: AuditEntryInput, at: number) {
  const said = (['userId', 'personUuid', 'outboxId'] as const).flatMap((key) => {
    const value = input.subject?.[key]
    return value ? [[key, wellFormed(value)] as const] : []
  })
  return {
    at: at + 0,
    kioskId: 'kiosk-1',
    action: input.action,
    outcome: input.outcome,
    role: input.role,
    account: textOrNull(input.account),
    subject: said.length > 0 ? Object.fromEntries(said) : null,
    score: typeof input.score === 'number' && Number.isFinite(input.score) ? input.score + 0 : null,
    detail: textOrNull(input.detail),
    correlationId: textOrNull(input.correlationId),
  }
}

/** Replays a failing run: AUDIT_PROPERTY_SEED=<seed printed by fast-check>. */
const propertySeed = Number(process.env.AUDIT_PROPERTY_SEED || 2525)
const IMAGE_IN_TEXT = /\/9j\/|iVBORw0KGgo/
const textArb = fc
  .oneof(
    fc.constantFrom('', ' ', '\u0000', 'é', 'e\u0301', 'ß', 'İ', '😀', '\ud83d', '\ude00x', 'a\ud800\ud800b', '\ufeff', '\u202e', 'said "no", then\nleft', 'x'.repeat(256), '😀'.repeat(128)),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    // Any UTF-16 code unit, lone surrogate halves too.
    fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)), maxLength: 40 }),
  )
  .filter((text) => text.length <= 256 && !IMAGE_IN_TEXT.test(text))
const subjectFieldArb = fc.oneof(fc.constant(undefined), fc.constant(null), fc.constant(''), textArb)
const entryArb = fc.record({
  input: fc.record(
    {
      action: fc.constantFrom(...auditActions),
      outcome: fc.constantFrom(...auditOutcomes),
      role: fc.constantFrom(...auditRoles),
      account: fc.option(textArb),
      subject: fc.oneof(
        fc.constant(undefined),
        fc.constant(null),
        fc.constant({}),
        fc.record({ userId: subjectFieldArb, personUuid: subjectFieldArb, outboxId: subjectFieldArb }, { requiredKeys: [] }),
      ),
      score: fc.oneof(
        fc.constant(undefined),
        fc.constant(null),
        fc.constantFrom(0, -0, 1, -1, 100, 0.97, 0.1 + 0.2, Number.MIN_VALUE, -Number.MIN_VALUE, Number.MAX_VALUE, -Number.MAX_VALUE, Number.EPSILON, 2 ** 53 + 2, 1e21, 1e-7, NaN, Infinity, -Infinity),
        fc.double(),
      ),
      detail: fc.oneof(fc.constant(undefined), fc.option(textArb)),
      correlationId: fc.oneof(fc.constant(undefined), fc.option(textArb)),
    },
    { requiredKeys: ['action', 'outcome', 'role', 'account'] },
  ) as fc.Arbitrary<AuditEntryInput>,
  at: fc.oneof(fc.constantFrom(0, -0, 1_700_000_000_000, Number.MAX_SAFE_INTEGER), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.double({ noNaN: true, noDefaultInfinity: true })),
})

describe('audit store: one form of an entry, for append, read-back and verification', () => {
  it('reads back every valid entry as the rules say and verifies the chain (property, fast-check)', () => {
    fc.assert(
      fc.property(fc.array(entryArb, { minLength: 1, maxLength: 12 }), (acts) => {
        const dir = newDir()
        let clock = 0
        const log = openAuditLog({ dir, kioskId: 'kiosk-1', now: () => clock })
        try {
          const appended: AuditEntry[] = acts.map(({ input, at }, i) => {
            clock = at
            const entry = log.append(input)
            expect(entry).toEqual({ seq: i + 1, ...readBack(input, at), prevHash: expect.stringMatching(/^[0-9a-f]{64}$/), hash: expect.stringMatching(/^[0-9a-f]{64}$/) })
            return entry
          })
          // What append returned is what a read gives, and the chain holds over exactly that.
          expect(log.query({ limit: 1000 }).reverse()).toEqual(appended)
          expect(JSON.parse(log.exportJson({})).reverse()).toEqual(JSON.parse(JSON.stringify(appended)))
          expect(log.verify()).toMatchObject({ ok: true, entries: acts.length, firstBadSeq: null, reason: null })
        } finally {
          log.close()
        }
        const reopened = openAuditLog({ dir, kioskId: 'kiosk-1' })
        try {
          expect(reopened.startVerdict).toMatchObject({ ok: true, entries: acts.length, firstBadSeq: null })
        } finally {
          reopened.close()
        }
      }),
      { seed: propertySeed, numRuns: 150 },
    )
  })

  it('verifies any trail an older kiosk wrote, naming exactly its entries in the previous format (property, fast-check)', () => {
    // Older kiosks could not keep a lone surrogate half either (SQLite stored U+FFFD for it): their texts here are well-formed.
    const olderEntryArb = entryArb.filter(({ input }) =>
      [input.account, input.detail, input.correlationId, input.subject?.userId, input.subject?.personUuid, input.subject?.outboxId].every((t) => typeof t !== 'string' || t === wellFormed(t)),
    )
    // The previous format differs only where a subject was given with nothing said in it, or with an empty field.
    const inPreviousFormat = (input: AuditEntryInput) => {
      if (!input.subject) return false
      const fields = [input.subject.userId, input.subject.personUuid, input.subject.outboxId]
      return fields.every((f) => !f) || fields.includes('')
    }
    fc.assert(
      fc.property(fc.array(olderEntryArb, { minLength: 1, maxLength: 12 }), fc.array(entryArb, { maxLength: 4 }), (older, newer) => {
        const dir = newDir()
        openAuditLog({ dir, kioskId: 'kiosk-1' }).close()
        for (const { input, at } of older) appendAsOlderKiosk(dir, input, at)
        const seqs = older.flatMap(({ input }, i) => (inPreviousFormat(input) ? [i + 1] : []))
        const log = openAuditLog({ dir, kioskId: 'kiosk-1', now: () => 1 })
        try {
          const previousFormat = { entries: seqs.length, seqs }
          expect(log.startVerdict).toEqual({ ok: true, entries: older.length, firstBadSeq: null, reason: null, previousFormat })
          expect(log.query({ limit: 1000 }).reverse().map((e) => e.subject)).toEqual(older.map(({ input, at }) => readBack(input, at).subject))
          for (const { input } of newer) log.append(input)
          expect(log.verify()).toEqual({ ok: true, entries: older.length + newer.length, firstBadSeq: null, reason: null, previousFormat })
        } finally {
          log.close()
        }
      }),
      { seed: propertySeed, numRuns: 100 },
    )
  })

  it('keeps an entry about nobody as no subject: the chain holds, and a real edit after it is named', () => {
    const dir = newDir()
    const log = open(dir)
    // A visitor's photo with no e-mail, and the staff's verify with neither e-mail nor id: whom it concerns is {}.
    log.append({ action: 'verify', outcome: 'started', role: 'visitor', account: null, subject: {}, correlationId: 'c1' })
    log.append({ action: 'verify', outcome: 'refused', role: 'visitor', account: null, subject: {}, detail: 'INVALID_INPUT', correlationId: 'c1' })
    log.append({ action: 'verify', outcome: 'ok', role: 'admin', account: 'Ada', subject: { userId: '' }, detail: 'not-found' })
    log.append({ action: 'verify', outcome: 'ok', role: 'admin', account: 'Ada', subject: { userId: undefined, personUuid: undefined } })
    for (let i = 0; i < 4; i++) log.append(act(i))
    expect(log.query({ limit: 4, beforeSeq: 5 }).map((e) => e.subject)).toEqual([null, null, null, null])
    expect(log.verify()).toMatchObject({ ok: true, entries: 8, firstBadSeq: null })
    expect(open(dir).startVerdict).toMatchObject({ ok: true, entries: 8 })

    tamper(dir, "UPDATE entries SET detail = 'nothing happened' WHERE seq = 6")
    expect(log.verify()).toMatchObject({ ok: false, firstBadSeq: 6, reason: 'entry 6 was changed after it was written' })
  })

  it('verifies a trail an older kiosk wrote, saying which entries are in the previous format, and still finds real edits', () => {
    const dir = newDir()
    open(dir).close() // the schema, as the older kiosk had it (it is unchanged)
    const older: Array<[AuditEntryInput, number]> = [
      [{ action: 'sign-in', outcome: 'ok', role: 'admin', account: 'Ada' }, 1_000],
      [{ action: 'verify', outcome: 'started', role: 'visitor', account: null, subject: {}, correlationId: 'c1' }, 2_000],
      [{ action: 'verify', outcome: 'refused', role: 'visitor', account: null, subject: {}, detail: 'INVALID_INPUT', correlationId: 'c1' }, 2_001],
      [act(3), 3_000],
      [{ action: 'verify', outcome: 'ok', role: 'admin', account: 'Ada', subject: { userId: '' }, score: null, detail: 'not-found', correlationId: 'c2' }, 4_000],
      [{ action: 'verify', outcome: 'started', role: 'operator', account: 'Otto', subject: {}, correlationId: 'c3' }, 5_000],
      [{ action: 'verify', outcome: 'refused', role: 'operator', account: 'Otto', subject: {}, detail: 'INVALID_INPUT', correlationId: 'c3' }, 5_001],
      [{ action: 'enroll', outcome: 'ok', role: 'visitor', account: null, subject: { userId: '', personUuid: '00000000-0000-4000-8000-000000000001' }, score: 0.5 }, 6_000],
      [{ action: 'settings-change', outcome: 'ok', role: 'admin', account: 'Ada', detail: 'idleTimeoutSeconds' }, 7_000],
    ]
    for (const [input, at] of older) appendAsOlderKiosk(dir, input, at)

    const previousFormat = { entries: 6, seqs: [2, 3, 5, 6, 7, 8] }
    let clock = 8_000
    const log = open(dir, () => (clock += 1))
    expect(log.startVerdict).toEqual({ ok: true, entries: 9, firstBadSeq: null, reason: null, previousFormat })
    expect(log.query({ limit: 1000 }).reverse().map((e) => e.subject)).toEqual([
      null, null, null, { userId: 'v3@example.org', personUuid: '00000000-0000-4000-8000-000000000003' }, null, null, null, { personUuid: '00000000-0000-4000-8000-000000000001' }, null,
    ])
    // Entries written after the upgrade are in the one form, also about nobody.
    log.append({ action: 'verify', outcome: 'started', role: 'visitor', account: null, subject: {}, correlationId: 'c4' })
    log.append(act(10))
    expect(log.verify()).toEqual({ ok: true, entries: 11, firstBadSeq: null, reason: null, previousFormat })

    // A real edit after the entries in the previous format is named, not hidden behind them …
    tamper(dir, "UPDATE entries SET detail = 'nothing happened' WHERE seq = 9")
    expect(log.verify()).toMatchObject({ ok: false, firstBadSeq: 9, reason: 'entry 9 was changed after it was written' })
    // … and so is an edit of one of them: the previous format is a way to read, not a pass.
    tamper(dir, "UPDATE entries SET user_id = 'someone@example.org' WHERE seq = 3")
    expect(log.verify()).toMatchObject({ ok: false, firstBadSeq: 3, reason: 'entry 3 was changed after it was written', previousFormat: { entries: 1, seqs: [2] } })
  })

  it('counts every entry in the previous format and lists the oldest, within the contract', () => {
    const dir = newDir()
    open(dir).close()
    const count = PREVIOUS_FORMAT_LISTED + 20
    for (let i = 0; i < count; i++) appendAsOlderKiosk(dir, { action: 'verify', outcome: i % 2 ? 'refused' : 'started', role: 'visitor', account: null, subject: {} }, i)
    const verdict = open(dir).startVerdict
    expect(verdict).toMatchObject({ ok: true, entries: count, previousFormat: { entries: count, seqs: Array.from({ length: PREVIOUS_FORMAT_LISTED }, (_, i) => i + 1) } })
    expect(auditVerdictSchema.parse(verdict)).toEqual(verdict)
  })
})
