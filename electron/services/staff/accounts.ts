import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { accountKey, type AccountView, type StaffRole } from '../../shared/staff'
import { KioskError } from '../../shared/errors'
import { openPrivateDatabase, type Db } from '../private-database'

export const ACCOUNTS_FILE = 'accounts.db'

const migrations = [
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
  const db: Db = openPrivateDatabase(options.dir, ACCOUNTS_FILE, migrations)
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
