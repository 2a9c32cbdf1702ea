import { accountKey, type AccountView, type StaffRole } from '../../shared/staff'
import type { Sql } from '../sql/types'

/** An account as stored: its view plus what only sign-in reads (the hash and the back-off). */
export interface AccountRow {
  name_key: string
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

export const accountView = (row: AccountRow): AccountView => ({
  name: row.name,
  role: row.role,
  disabled: row.disabled === 1,
  createdAt: row.created_at,
  lastSignInAt: row.last_sign_in_at,
})

/** Taken by every change that reads accounts to decide (first admin, last admin, a name taken), so two engines cannot both pass the check. */
const ACCOUNTS_LOCK = 0x6b696f736b10

/**
 * The staff accounts table. Names are found by accountKey (NFC, case-folded in JavaScript), so
 * "Élise" and "ÉLISE" are one account in either dialect. Over the caller's connection or
 * transaction: repositories made on a transaction's `Sql` join it.
 */
export class AccountRepository {
  constructor(private readonly sql: Sql) {}

  /** Serializes account decisions until the transaction ends (on SQLite, BEGIN IMMEDIATE already has). */
  async lock(): Promise<void> {
    if (this.sql.dialect === 'postgres') await this.sql.get('SELECT pg_advisory_xact_lock(?)', [ACCOUNTS_LOCK])
  }

  async count(): Promise<number> {
    return (await this.sql.get<{ n: number }>('SELECT count(*) AS n FROM accounts'))!.n
  }

  byName(name: string): Promise<AccountRow | undefined> {
    return this.byKey(accountKey(name))
  }

  byKey(key: string): Promise<AccountRow | undefined> {
    return this.sql.get<AccountRow>('SELECT * FROM accounts WHERE name_key = ?', [key])
  }

  /** Every account as stored (for the kiosks' copies: sync-rules.ts). */
  rows(): Promise<AccountRow[]> {
    return this.sql.all<AccountRow>('SELECT * FROM accounts ORDER BY created_at, name')
  }

  async list(): Promise<AccountView[]> {
    return (await this.sql.all<AccountRow>('SELECT * FROM accounts ORDER BY created_at, name')).map(accountView)
  }

  async activeAdmins(): Promise<number> {
    return (await this.sql.get<{ n: number }>("SELECT count(*) AS n FROM accounts WHERE role = 'admin' AND disabled = 0"))!.n
  }

  async insert(account: { name: string; role: StaffRole; salt: Buffer; hash: Buffer; params: string; createdAt: number; lastSignInAt: number | null }): Promise<void> {
    await this.sql.run('INSERT INTO accounts (name_key, name, role, salt, hash, params, created_at, last_sign_in_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
      accountKey(account.name),
      account.name,
      account.role,
      account.salt,
      account.hash,
      account.params,
      account.createdAt,
      account.lastSignInAt,
    ])
  }

  /** A row exactly as another store kept it (the import of a kiosk's accounts.db); an account already here is kept. */
  async insertImported(row: Omit<AccountRow, 'name_key'>): Promise<boolean> {
    const changed = await this.sql.run(
      `INSERT INTO accounts (name_key, name, role, salt, hash, params, disabled, created_at, last_sign_in_at, failures, locked_until)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name_key) DO NOTHING`,
      [accountKey(row.name), row.name, row.role, row.salt, row.hash, row.params, row.disabled, row.created_at, row.last_sign_in_at, row.failures, row.locked_until],
    )
    return changed > 0
  }

  /** One more failed sign-in, counted in the row (a row lock on PostgreSQL, so racing failures all count); returns the new count. */
  async addFailure(key: string): Promise<number> {
    return (await this.sql.get<{ failures: number }>('UPDATE accounts SET failures = failures + 1 WHERE name_key = ? RETURNING failures', [key]))?.failures ?? 0
  }

  async pauseUntil(key: string, lockedUntil: number): Promise<void> {
    await this.sql.run('UPDATE accounts SET locked_until = ? WHERE name_key = ?', [lockedUntil, key])
  }

  /** A good sign-in clears the back-off; false when the account is disabled (or gone) by now. */
  async signedIn(key: string, at: number): Promise<boolean> {
    return (await this.sql.run('UPDATE accounts SET failures = 0, locked_until = 0, last_sign_in_at = ? WHERE name_key = ? AND disabled = 0', [at, key])) > 0
  }

  async setDisabled(key: string, disabled: boolean): Promise<void> {
    await this.sql.run('UPDATE accounts SET disabled = ? WHERE name_key = ?', [disabled ? 1 : 0, key])
  }
}
