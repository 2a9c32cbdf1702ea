import { createHmac, randomUUID } from 'node:crypto'
import type { z } from 'zod'
import { emailKey, uuidKey } from '../../records/frontdesk/watchlist-repository'
import { copiedAccountSchema, copiedInviteKeySchema, copiedInviteSchema, copiedKioskSchema, copiedWatchlistEntrySchema, queuedActSchema, type CopiedAccount, type CopiedInvite, type CopiedInviteKey, type CopiedKiosk, type CopiedWatchlistEntry, type PullResult, type QueuedAct, type SyncTopic } from '../../shared/site-sync'
import { hostNameSchema, visitSchema, type HostName, type Visit } from '../../shared/visits'
import type { WatchlistEntry } from '../../shared/watchlist'
import { createSealer } from '../outbox/sealer'
import { openPrivateDatabase, type Db } from '../private-database'

/** The kiosk's copy of its site's records, in its data folder. */
export const SITE_COPY_FILE = 'site-copy.db'

const migrations = [
  `
  -- One row per (topic, key) as the site last said it is; the key kept as a keyed hash, the value sealed.
  CREATE TABLE copy_rows (
    topic TEXT NOT NULL,
    key_hash TEXT NOT NULL,
    value BLOB NOT NULL,
    PRIMARY KEY (topic, key_hash)
  ) WITHOUT ROWID;
  CREATE TABLE copy_state (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    site TEXT,
    cookie INTEGER NOT NULL,
    pulled_at INTEGER,
    offline_since INTEGER,
    last_seq INTEGER NOT NULL,
    key_check BLOB
  );
  INSERT INTO copy_state (id, site, cookie, pulled_at, offline_since, last_seq, key_check) VALUES (1, NULL, 0, NULL, NULL, 0, NULL);
  -- Acts made here until the site says it applied them (its lastMutationSeq).
  CREATE TABLE copy_acts (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    at INTEGER NOT NULL,
    payload BLOB NOT NULL
  );
  `,
  `
  -- The host names the site last answered (one sealed list): whom a visitor can pick while it is away.
  CREATE TABLE copy_hosts (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    value BLOB NOT NULL
  );
  `,
  `
  -- 1 once a whole copy (a reset) with the staff accounts was applied: a copy filled before the
  -- accounts were asked for has none, and its next pull starts over from cookie 0 to get them.
  ALTER TABLE copy_state ADD COLUMN accounts_copied INTEGER NOT NULL DEFAULT 0;
  `,
  `
  -- 1 once a whole copy with the invitations and the site's invitation keys was applied (as accounts_copied).
  ALTER TABLE copy_state ADD COLUMN invites_copied INTEGER NOT NULL DEFAULT 0;
  `,
]

/** An act to hand the site, before it has its place in the queue. */
export type NewAct = Pick<QueuedAct, 'kind' | 'args'>

export interface CopyState {
  /** Which site this is a copy of (the front desk's id, `site|<url>`); null: none yet. */
  site: string | null
  /** The site's change-log seq the copy is up to. */
  cookie: number
  /** The last pull the site answered (ms); null: none yet. */
  pulledAt: number | null
  /** The first failed call of the current outage (ms); null while the site answers. */
  offlineSince: number | null
}

export interface SiteCopy {
  state(): CopyState
  /** Makes this the copy of `site`: a copy of another site (or none) starts over, its rows and waiting acts gone. True when it did. */
  useSite(site: string): boolean
  /** One pull page, in one transaction with its cookie; false (nothing changed) when the copy is no longer of `site`. */
  apply(site: string, page: PullResult, at: number): boolean
  /** The site applied every act up to `seq`. */
  acknowledge(site: string, seq: number): void
  /** A failed call: offline since now, unless already. */
  markOffline(at: number): void
  markOnline(): void
  /** With each listed person's faces the site sent (site-sync's copiedWatchlistEntrySchema). */
  watchlist(): CopiedWatchlistEntry[]
  /** The entry screening finds, as the site's rules do: by any person uuid, else by the e-mail given. */
  listed(personUuids: readonly string[], givenEmail: string | null): WatchlistEntry | null
  /** Open visits, oldest check-in first. */
  openVisits(): Visit[]
  kiosks(): CopiedKiosk[]
  /** The staff account under this name key (accountKey), as of the last pull; null: none (or unreadable). */
  account(nameKey: string): CopiedAccount | null
  /** Whether the copy holds the site's accounts (a whole copy was pulled since they were asked for). */
  accountsCopied(): boolean
  /** The invitation with this id as of the last pull (null: none, or not copied yet). */
  invite(id: string): CopiedInvite | null
  /** The site's Ed25519 invitation key with this id (its public half); null: none known here. */
  inviteKey(kid: string): CopiedInviteKey | null
  /** Whether the copy holds the site's invitations and keys (as accountsCopied). */
  invitesCopied(): boolean
  counts(): { watchlistEntries: number; openVisits: number; waitingActs: number }
  /** Queues an act (a new id and the next seq), in the copy's file before this returns. */
  queue(act: NewAct, at: number): QueuedAct
  /** The oldest waiting acts, up to `limit`. */
  waiting(limit?: number): QueuedAct[]
  /** A waiting visit act's person learned their servers' id: it is kept with the act. False when no such act waits. */
  named(seq: number, personUuid: string): boolean
  /** A waiting act that can never be applied (its person is on no server and waits in no outbox): gone. */
  drop(seq: number): void
  /** The host names the site last answered (none: never asked, or another site's). */
  hostNames(): HostName[] | null
  keepHostNames(list: readonly HostName[]): void
  close(): void
}

interface StateRow {
  site: string | null
  cookie: number
  pulled_at: number | null
  offline_since: number | null
  last_seq: number
  key_check: Buffer | null
}

const KEY_CHECK = 'site-copy key check'
const HOSTS_AAD = 'site-copy:host-names'

/**
 * A site kiosk's local copy of its site's watchlist, open visits, kiosks and staff accounts (their
 * PIN hashes, read one at a time by `account`: what a pull says), and
 * the acts it made while the site was away. `<dataDir>/site-copy.db`, 0600 in a 0700 folder; every
 * value is sealed with AES-256-GCM under `key` (the outbox's key), bound to its topic and key, and
 * the keys themselves are kept as keyed hashes: the file says nothing of who is listed or on site
 * without the keychain. A copy that the key no longer opens (the keychain's key was replaced) starts
 * over: the next pull fills it again.
 */
export function openSiteCopy(options: { dataDir: string; key: Buffer; log?: (line: string) => void }): SiteCopy {
  const sealer = createSealer(options.key)
  const hashKey = createHmac('sha256', options.key).update('site-copy row keys').digest()
  const keyHash = (topic: SyncTopic, key: string) => createHmac('sha256', hashKey).update(`${topic}\n${key}`).digest('base64url')
  const db: Db = openPrivateDatabase(options.dataDir, SITE_COPY_FILE, migrations)

  const seal = (value: unknown, aad: string) => sealer.seal(Buffer.from(JSON.stringify(value), 'utf8'), aad)
  const open = (blob: Buffer, aad: string): unknown => JSON.parse(sealer.open(blob, aad).toString('utf8'))
  const rowAad = (topic: string, hash: string) => `site-copy:${topic}:${hash}`
  const actAad = (seq: number, id: string, kind: string) => `site-copy-act:${seq}:${id}:${kind}`

  const readState = () => db.prepare('SELECT site, cookie, pulled_at, offline_since, last_seq, key_check FROM copy_state WHERE id = 1').get() as StateRow
  const startOver = db.transaction((site: string | null) => {
    db.prepare('DELETE FROM copy_rows').run()
    db.prepare('DELETE FROM copy_acts').run()
    db.prepare('DELETE FROM copy_hosts').run()
    // last_seq stays: an act's seq is never given twice, whichever site it went to.
    db.prepare('UPDATE copy_state SET site = ?, cookie = 0, pulled_at = NULL, offline_since = NULL, key_check = ?, accounts_copied = 0, invites_copied = 0 WHERE id = 1').run(site, seal(KEY_CHECK, 'site-copy:key-check'))
  })

  // A copy sealed under another key cannot be read: it is dropped, never half-used.
  const check = readState().key_check
  let keyFits = check !== null
  if (check !== null) {
    try {
      keyFits = open(check, 'site-copy:key-check') === KEY_CHECK
    } catch {
      keyFits = false
    }
  }
  if (!keyFits) {
    if (check !== null) options.log?.('site copy: sealed under another key; starting over')
    startOver(readState().site)
  }

  /** One row by its keyed hash (a sign-in opens only the account it names); null: none, or one that does not open or parse, never trusted. */
  function oneRow<T>(topic: SyncTopic, key: string, schema: z.ZodType<T>): T | null {
    const hash = keyHash(topic, key)
    const row = db.prepare('SELECT value FROM copy_rows WHERE topic = ? AND key_hash = ?').get(topic, hash) as { value: Buffer } | undefined
    if (!row) return null
    let value: unknown
    try {
      value = open(row.value, rowAad(topic, hash))
    } catch {
      return null
    }
    const parsed = schema.safeParse(value)
    return parsed.success ? parsed.data : null
  }

  function rows<T>(topic: SyncTopic, schema: z.ZodType<T>): T[] {
    const found = db.prepare('SELECT key_hash, value FROM copy_rows WHERE topic = ?').all(topic) as Array<{ key_hash: string; value: Buffer }>
    return found.flatMap((row) => {
      const parsed = schema.safeParse(open(row.value, rowAad(topic, row.key_hash)))
      return parsed.success ? [parsed.data] : []
    })
  }
  const count = (sql: string, ...params: unknown[]) => (db.prepare(sql).get(...params) as { n: number }).n

  const applyPage = db.transaction((site: string, page: PullResult, at: number): boolean => {
    if (readState().site !== site) return false
    if (page.reset) {
      db.prepare('DELETE FROM copy_rows').run()
      // Every pull asks for the accounts and the invitations (site-sync.ts): a whole copy has them.
      db.prepare('UPDATE copy_state SET accounts_copied = 1, invites_copied = 1 WHERE id = 1').run()
    }
    const put = db.prepare('INSERT INTO copy_rows (topic, key_hash, value) VALUES (?, ?, ?) ON CONFLICT (topic, key_hash) DO UPDATE SET value = excluded.value')
    const drop = db.prepare('DELETE FROM copy_rows WHERE topic = ? AND key_hash = ?')
    for (const op of page.ops) {
      const hash = keyHash(op.topic, op.key)
      if (op.value === null) drop.run(op.topic, hash)
      else put.run(op.topic, hash, seal(op.value, rowAad(op.topic, hash)))
    }
    // A copy made anew (its file lost, the kiosk still paired) numbers its next acts above what the
    // site applied, or the site would take them for acts it has and drop them.
    db.prepare('UPDATE copy_state SET cookie = ?, pulled_at = ?, last_seq = max(last_seq, ?) WHERE id = 1').run(page.cookie, at, page.lastMutationSeq)
    db.prepare('DELETE FROM copy_acts WHERE seq <= ?').run(page.lastMutationSeq)
    return true
  })

  const queueAct = db.transaction((act: NewAct, at: number): QueuedAct => {
    const seq = readState().last_seq + 1
    const id = randomUUID()
    // Checked before it is kept: an act the queue could not read back would block every act after it.
    const queued = queuedActSchema.parse({ kind: act.kind, id, seq, at, args: act.args })
    db.prepare('UPDATE copy_state SET last_seq = ? WHERE id = 1').run(seq)
    db.prepare('INSERT INTO copy_acts (seq, id, kind, at, payload) VALUES (?, ?, ?, ?, ?)').run(seq, id, act.kind, at, seal(queued.args, actAad(seq, id, act.kind)))
    return queued
  })

  type ActRow = { seq: number; id: string; kind: string; at: number; payload: Buffer }
  const actOf = (row: ActRow): QueuedAct => queuedActSchema.parse({ kind: row.kind, id: row.id, seq: row.seq, at: row.at, args: open(row.payload, actAad(row.seq, row.id, row.kind)) })

  const nameAct = db.transaction((seq: number, personUuid: string): boolean => {
    const row = db.prepare('SELECT seq, id, kind, at, payload FROM copy_acts WHERE seq = ?').get(seq) as ActRow | undefined
    if (!row) return false
    const act = actOf(row)
    // Only a visit's act names its person by e-mail alone; an alert names the listed person by the site's id.
    if (act.kind !== 'check-in' && act.kind !== 'check-out') return false
    const args = { ...act.args, person: { ...act.args.person, personUuid } }
    db.prepare('UPDATE copy_acts SET payload = ? WHERE seq = ?').run(seal(args, actAad(row.seq, row.id, row.kind)), seq)
    return true
  })

  const copy: SiteCopy = {
    state() {
      const row = readState()
      return { site: row.site, cookie: row.cookie, pulledAt: row.pulled_at, offlineSince: row.offline_since }
    },
    useSite(site) {
      if (readState().site === site) return false
      startOver(site)
      return true
    },
    apply: (site, page, at) => applyPage(site, page, at),
    acknowledge(site, seq) {
      db.transaction(() => {
        if (readState().site === site) db.prepare('DELETE FROM copy_acts WHERE seq <= ?').run(seq)
      })()
    },
    markOffline(at) {
      db.prepare('UPDATE copy_state SET offline_since = ? WHERE id = 1 AND offline_since IS NULL').run(at)
    },
    markOnline() {
      db.prepare('UPDATE copy_state SET offline_since = NULL WHERE id = 1').run()
    },
    watchlist: () => rows('watchlist', copiedWatchlistEntrySchema),
    listed(personUuids, givenEmail) {
      // The site's order for an e-mail listed twice: the oldest entry.
      const entries = copy.watchlist().sort((a, b) => a.addedAt - b.addedAt || (a.personUuid < b.personUuid ? -1 : 1))
      for (const uuid of personUuids) {
        const entry = entries.find((e) => uuidKey(e.personUuid) === uuidKey(uuid))
        if (entry) return entry
      }
      if (givenEmail === null) return null
      return entries.find((e) => emailKey(e.email) === emailKey(givenEmail)) ?? null
    },
    openVisits: () =>
      rows('visit', visitSchema)
        .filter((v) => v.checkedOutAt === null)
        .sort((a, b) => Date.parse(a.checkedInAt) - Date.parse(b.checkedInAt) || (a.id < b.id ? -1 : 1)),
    kiosks: () => rows('kiosk', copiedKioskSchema),
    account: (nameKey) => oneRow('account', nameKey, copiedAccountSchema),
    invite: (id) => oneRow('invite', id, copiedInviteSchema),
    inviteKey: (kid) => oneRow('invite-key', kid, copiedInviteKeySchema),
    accountsCopied: () => (db.prepare('SELECT accounts_copied AS copied FROM copy_state WHERE id = 1').get() as { copied: number }).copied === 1,
    invitesCopied: () => (db.prepare('SELECT invites_copied AS copied FROM copy_state WHERE id = 1').get() as { copied: number }).copied === 1,
    counts: () => ({
      watchlistEntries: count("SELECT count(*) AS n FROM copy_rows WHERE topic = 'watchlist'"),
      openVisits: count("SELECT count(*) AS n FROM copy_rows WHERE topic = 'visit'"),
      waitingActs: count('SELECT count(*) AS n FROM copy_acts'),
    }),
    queue: (act, at) => queueAct(act, at),
    waiting(limit = Number.MAX_SAFE_INTEGER) {
      return (db.prepare('SELECT seq, id, kind, at, payload FROM copy_acts ORDER BY seq LIMIT ?').all(limit) as ActRow[]).map(actOf)
    },
    named: (seq, personUuid) => nameAct(seq, personUuid),
    drop(seq) {
      db.prepare('DELETE FROM copy_acts WHERE seq = ?').run(seq)
    },
    hostNames() {
      const row = db.prepare('SELECT value FROM copy_hosts WHERE id = 1').get() as { value: Buffer } | undefined
      if (!row) return null
      const parsed = hostNameSchema.array().safeParse(open(row.value, HOSTS_AAD))
      return parsed.success ? parsed.data : null
    },
    keepHostNames(list) {
      db.prepare('INSERT INTO copy_hosts (id, value) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET value = excluded.value').run(seal(list, HOSTS_AAD))
    },
    close: () => db.close(),
  }
  return copy
}
