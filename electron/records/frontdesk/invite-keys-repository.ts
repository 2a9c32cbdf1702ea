import type { Sql } from '../sql/types'

export interface InviteKeyRow {
  kid: string
  secret: Buffer
  created_at: number
}

/** Taken while the current invitation key is made or replaced, so two engines make one. */
const INVITE_KEYS_LOCK = 0x6b696f736b11

/** The keys invitation codes are signed with: the newest signs new codes, every one checks the codes it signed. */
export class InviteKeyRepository {
  constructor(private readonly sql: Sql) {}

  /** Serializes key changes until the transaction ends (on SQLite, BEGIN IMMEDIATE already has). */
  async lock(): Promise<void> {
    if (this.sql.dialect === 'postgres') await this.sql.get('SELECT pg_advisory_xact_lock(?)', [INVITE_KEYS_LOCK])
  }

  newest(): Promise<InviteKeyRow | undefined> {
    return this.sql.get<InviteKeyRow>('SELECT * FROM invite_keys ORDER BY created_at DESC, kid DESC LIMIT 1')
  }

  byKid(kid: string): Promise<InviteKeyRow | undefined> {
    return this.sql.get<InviteKeyRow>('SELECT * FROM invite_keys WHERE kid = ?', [kid])
  }

  async insert(row: InviteKeyRow): Promise<void> {
    await this.sql.run('INSERT INTO invite_keys (kid, secret, created_at) VALUES (?, ?, ?)', [row.kid, row.secret, row.created_at])
  }
}
