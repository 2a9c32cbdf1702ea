import Database from 'better-sqlite3'
import { randomBytes, randomUUID, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs'
import { join } from 'node:path'
import { KioskError } from '../../electron/shared/errors'
import { accountKey, type AccountView, type StaffRole } from '../../electron/shared/staff'
import type { WatchlistAlert as CurrentAlert, WatchlistEntry, WatchlistPlace } from '../../electron/shared/watchlist'

/** Alerts then named no kiosk (a kiosk was on its own); a first name is read with an alert, never stored. */
type WatchlistAlert = Omit<CurrentAlert, 'kioskName' | 'firstName'>

/**
 * A kiosk's accounts.db and watchlist.db as kiosks kept them before the front desk's records moved to frontdesk.db (electron/services/
 * staff/accounts.ts, watchlist/store.ts and private-database.ts as they were), frozen here to make
 * such files in tests: the front desk's records import them on their first open. Never how the
 * kiosk keeps its staff or its watchlist now.
 */

type Db = Database.Database

function openPrivateDatabase(dir: string, file: string, migrations: readonly string[]): Db {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const path = join(dir, file)
  closeSync(openSync(path, 'a', 0o600))
  chmodSync(path, 0o600)
  const db = new Database(path)
  db.pragma('busy_timeout = 5000')
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = FULL')
  db.pragma('secure_delete = ON')
  db.transaction(() => {
    const applied = db.pragma('user_version', { simple: true }) as number
    for (let version = applied; version < migrations.length; version++) {
      db.exec(migrations[version]!)
      db.pragma(`user_version = ${version + 1}`)
    }
  }).immediate()
  return db
}

const ACCOUNTS_FILE = 'accounts.db'

const accountsMigrations = [
  `CREATE TABLE accounts (
     name TEXT PRIMARY KEY COLLATE NOCASE,
     role TEXT NOT NULL CHECK (role IN ('operator', 'admin')),
     salt BLOB NOT NULL,
     hash BLOB NOT NULL,
     params TEXT NOT NULL,
     disabled INTEGER NOT NULL DEFAULT 0,
     created_at INTEGER NOT NULL,
     last_sign_in_at INTEGER,
     failures INTEGER NOT NULL DEFAULT 0,
     locked_until INTEGER NOT NULL DEFAULT 0
   );`,
]

/** scrypt at N=2^15, r=8: about 32 MB and a tenth of a second per try, in libuv's thread pool. */
const PARAMS = { N: 2 ** 15, r: 8, p: 1, keylen: 32 }
type Params = typeof PARAMS

function derive(secret: string, salt: Buffer, params: Params): Promise<Buffer> {
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r }
  return new Promise((resolve, reject) => scrypt(secret.normalize('NFKC'), salt, params.keylen, options, (error, key) => (error ? reject(error) : resolve(key))))
}

interface Row {
  name: string
  role: StaffRole
  salt: Buffer
  hash: Buffer
  params: string
  disabled: number
  created_at: number
  last_sign_in_at: number | null
  failures: number
  locked_until: number
}

const view = (row: Row): AccountView => ({
  name: row.name,
  role: row.role,
  disabled: row.disabled === 1,
  createdAt: row.created_at,
  lastSignInAt: row.last_sign_in_at,
})

export interface AccountsOptions {
  dir: string
  now?: () => number
  /** Failures allowed before the first pause; each further failure doubles it. */
  freeFailures?: number
  firstPauseMs?: number
  maxPauseMs?: number
}

export interface Accounts {
  count(): number
  list(): AccountView[]
  create(name: string, role: StaffRole, secret: string): Promise<AccountView>
  /** Creates the first administrator; refused once any account exists (checked again after hashing). */
  createFirst(name: string, secret: string): Promise<AccountView>
  setDisabled(name: string, disabled: boolean): AccountView
  /** The account when the secret is right; throws UNAUTHORIZED or TOO_MANY_ATTEMPTS otherwise. */
  verify(name: string, secret: string): Promise<AccountView>
  close(): void
}

/**
 * Staff accounts in the kiosk's data folder (accounts.db, 0600): each secret scrypt-hashed with
 * its own salt. Failed sign-ins pause the account exponentially, persisted so a restart does not
 * reset them; an unknown name costs the same scrypt as a known one and backs off in memory, so
 * neither timing nor the answer tells which names exist.
 */
export function openAccounts(options: AccountsOptions): Accounts {
  const db: Db = openPrivateDatabase(options.dir, ACCOUNTS_FILE, accountsMigrations)
  const now = options.now ?? Date.now
  const freeFailures = options.freeFailures ?? 3
  const firstPauseMs = options.firstPauseMs ?? 5_000
  const maxPauseMs = options.maxPauseMs ?? 15 * 60_000
  const unknownFailures = new Map<string, { failures: number; lockedUntil: number }>()
  const decoySalt = randomBytes(16)

  // SQLite's NOCASE folds ASCII only: names are compared by accountKey (a handful of rows, scanned).
  db.function('account_key', { deterministic: true }, (name) => accountKey(String(name)))
  const get = db.prepare<[string], Row>('SELECT * FROM accounts WHERE account_key(name) = account_key(?)')
  const all = db.prepare<[], Row>('SELECT * FROM accounts ORDER BY created_at, name')
  const countStmt = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM accounts')
  const insert = db.prepare('INSERT INTO accounts (name, role, salt, hash, params, created_at) VALUES (?, ?, ?, ?, ?, ?)')
  const setFailures = db.prepare('UPDATE accounts SET failures = ?, locked_until = ? WHERE name = ?')
  const signedIn = db.prepare('UPDATE accounts SET failures = 0, locked_until = 0, last_sign_in_at = ? WHERE name = ?')
  const setDisabledStmt = db.prepare('UPDATE accounts SET disabled = ? WHERE name = ?')

  const pauseAfter = (failures: number) => (failures < freeFailures ? 0 : Math.min(firstPauseMs * 2 ** (failures - freeFailures), maxPauseMs))
  const count = () => countStmt.get()!.n

  function refused(): never {
    throw new KioskError('UNAUTHORIZED', 'That name and PIN or password do not match an active staff account.')
  }
  function locked(until: number): never {
    const seconds = Math.max(1, Math.ceil((until - now()) / 1000))
    throw new KioskError('TOO_MANY_ATTEMPTS', `Too many failed sign-ins. Try again in ${seconds} seconds.`, { retryAfterSeconds: seconds })
  }

  async function hashed(name: string, role: StaffRole, secret: string) {
    const salt = randomBytes(16)
    const hash = await derive(secret, salt, PARAMS)
    return () => {
      if (get.get(name)) throw new KioskError('REJECTED', `An account named ${name} already exists.`)
      insert.run(name, role, salt, hash, JSON.stringify(PARAMS), now())
      return view(get.get(name)!)
    }
  }

  return {
    count,
    list: () => all.all().map(view),
    async create(name, role, secret) {
      return (await hashed(name, role, secret))()
    },
    async createFirst(name, secret) {
      if (count() > 0) throw new KioskError('FORBIDDEN', 'The first administrator already exists: sign in instead.')
      const commit = await hashed(name, 'admin', secret)
      // Two first-run requests raced through the hashing: only the first one to commit counts.
      return db.transaction(() => {
        if (count() > 0) throw new KioskError('FORBIDDEN', 'The first administrator already exists: sign in instead.')
        const created = commit()
        // Creating the first administrator signs them in: that is their last sign-in.
        signedIn.run(now(), created.name)
        return view(get.get(created.name)!)
      }).immediate()
    },
    setDisabled(name, disabled) {
      if (!get.get(name)) throw new KioskError('NOT_FOUND', `There is no account named ${name}.`)
      if (disabled && get.get(name)!.role === 'admin') {
        const activeAdmins = all.all().filter((r) => r.role === 'admin' && r.disabled === 0)
        if (activeAdmins.length <= 1) throw new KioskError('REJECTED', 'This is the last active administrator: add another before disabling it.')
      }
      setDisabledStmt.run(disabled ? 1 : 0, get.get(name)!.name)
      return view(get.get(name)!)
    },
    async verify(name, secret) {
      const row = get.get(name)
      const key = accountKey(name)
      const pending = row ? { failures: row.failures, lockedUntil: row.locked_until } : unknownFailures.get(key)
      if (pending && pending.lockedUntil > now()) locked(pending.lockedUntil)
      const params = row ? (JSON.parse(row.params) as Params) : PARAMS
      const derived = await derive(secret, row?.salt ?? decoySalt, params)
      const good = row !== undefined && derived.length === row.hash.length && timingSafeEqual(derived, row.hash) && row.disabled === 0
      if (good) {
        signedIn.run(now(), row.name)
        return view(get.get(row.name)!)
      }
      // Read again: other attempts may have failed while this one was hashing.
      const current = row ? get.get(row.name) : undefined
      const failures = (current ? current.failures : (unknownFailures.get(key)?.failures ?? 0)) + 1
      const lockedUntil = now() + pauseAfter(failures)
      if (current) setFailures.run(failures, lockedUntil, current.name)
      else if (unknownFailures.size < 10_000) unknownFailures.set(key, { failures, lockedUntil })
      return refused()
    },
    close: () => db.close(),
  }
}

const WATCHLIST_FILE = 'watchlist.db'

const watchlistMigrations = [
  `CREATE TABLE entries (
     person_uuid TEXT PRIMARY KEY COLLATE NOCASE,
     email TEXT NOT NULL COLLATE NOCASE,
     reason TEXT NOT NULL,
     added_by TEXT NOT NULL,
     added_at INTEGER NOT NULL
   );
   CREATE INDEX entries_email ON entries (email);
   CREATE TABLE alerts (
     id TEXT PRIMARY KEY,
     at INTEGER NOT NULL,
     kiosk_id TEXT NOT NULL,
     place TEXT NOT NULL CHECK (place IN ('enrollment', 'check-in')),
     person_uuid TEXT NOT NULL,
     email TEXT NOT NULL,
     given_email TEXT,
     reason TEXT NOT NULL,
     dismissed_at INTEGER,
     dismissed_by TEXT
   );
   CREATE INDEX alerts_open ON alerts (dismissed_at, at);`,
]

interface EntryRow {
  person_uuid: string
  email: string
  reason: string
  added_by: string
  added_at: number
}
interface AlertRow {
  id: string
  at: number
  kiosk_id: string
  place: WatchlistPlace
  person_uuid: string
  email: string
  given_email: string | null
  reason: string
}

const entryOf = (row: EntryRow): WatchlistEntry => ({ personUuid: row.person_uuid, email: row.email, reason: row.reason, addedBy: row.added_by, addedAt: row.added_at })
const alertOf = (row: AlertRow): WatchlistAlert => ({
  id: row.id,
  at: row.at,
  kioskId: row.kiosk_id,
  place: row.place,
  personUuid: row.person_uuid,
  email: row.email,
  givenEmail: row.given_email,
  reason: row.reason,
})

/** Alerts staff have not dismissed yet, newest first: a bounded list, never the whole history. */
const OPEN_ALERTS_SHOWN = 50

export interface WatchlistStore {
  add(entry: Omit<WatchlistEntry, 'addedAt'>): WatchlistEntry
  /** False when the person was not on the list. */
  remove(personUuid: string): boolean
  list(): WatchlistEntry[]
  /** The first entry among these persons, or under this e-mail (the address they were listed with). */
  match(personUuids: readonly string[], email: string | null): WatchlistEntry | null
  raise(alert: Omit<WatchlistAlert, 'id' | 'at'>): WatchlistAlert
  openAlerts(): WatchlistAlert[]
  /** False when no open alert has this id. */
  dismiss(id: string, by: string): boolean
  /** Forgets alerts dismissed more than `keepDays` ago (the audit trail keeps the record of each stop); returns how many. */
  pruneDismissed(keepDays: number): number
  close(): void
}

/**
 * The watchlist and its alerts in the kiosk's data folder (watchlist.db, 0600 in a 0700 folder):
 * personal data, so beside the other private stores, never in a log. Alerts are kept until staff
 * dismiss them, so one raised while nobody was signed in is shown at the next sign-in.
 */
export function openWatchlist(options: { dir: string; now?: () => number }): WatchlistStore {
  const now = options.now ?? Date.now
  const db = openPrivateDatabase(options.dir, WATCHLIST_FILE, watchlistMigrations)
  const insert = db.prepare<[string, string, string, string, number]>(
    `INSERT INTO entries (person_uuid, email, reason, added_by, added_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (person_uuid) DO UPDATE SET email = excluded.email, reason = excluded.reason, added_by = excluded.added_by, added_at = excluded.added_at`,
  )
  const byUuid = db.prepare<[string], EntryRow>('SELECT * FROM entries WHERE person_uuid = ?')
  const byEmail = db.prepare<[string], EntryRow>('SELECT * FROM entries WHERE email = ? ORDER BY added_at LIMIT 1')
  const insertAlert = db.prepare<[string, number, string, string, string, string, string | null, string]>(
    'INSERT INTO alerts (id, at, kiosk_id, place, person_uuid, email, given_email, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  )
  return {
    add(entry) {
      const addedAt = now()
      insert.run(entry.personUuid.toLowerCase(), entry.email, entry.reason, entry.addedBy, addedAt)
      return { ...entry, personUuid: entry.personUuid.toLowerCase(), addedAt }
    },
    remove: (personUuid) => db.prepare('DELETE FROM entries WHERE person_uuid = ?').run(personUuid).changes > 0,
    list: () => db.prepare<[], EntryRow>('SELECT * FROM entries ORDER BY added_at DESC').all().map(entryOf),
    match(personUuids, email) {
      for (const uuid of personUuids) {
        const row = byUuid.get(uuid)
        if (row) return entryOf(row)
      }
      const row = email === null ? undefined : byEmail.get(email.trim())
      return row ? entryOf(row) : null
    },
    raise(alert) {
      const raised = { ...alert, id: randomUUID(), at: now() }
      insertAlert.run(raised.id, raised.at, raised.kioskId, raised.place, raised.personUuid, raised.email, raised.givenEmail, raised.reason)
      return raised
    },
    openAlerts: () => db.prepare<[number], AlertRow>('SELECT * FROM alerts WHERE dismissed_at IS NULL ORDER BY at DESC LIMIT ?').all(OPEN_ALERTS_SHOWN).map(alertOf),
    dismiss: (id, by) => db.prepare('UPDATE alerts SET dismissed_at = ?, dismissed_by = ? WHERE id = ? AND dismissed_at IS NULL').run(now(), by, id).changes > 0,
    pruneDismissed: (keepDays) => db.prepare('DELETE FROM alerts WHERE dismissed_at IS NOT NULL AND dismissed_at < ?').run(now() - keepDays * 86_400_000).changes,
    close: () => db.close(),
  }
}

