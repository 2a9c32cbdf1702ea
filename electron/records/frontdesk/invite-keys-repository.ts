import type { Sql } from '../sql/types'

export interface InviteKeyRow {
  kid: string
  /** An HMAC key, or (public_key set) an Ed25519 private key, PKCS8 DER. */
  secret: Buffer
  /** An Ed25519 key's public half, SPKI DER; null: an HMAC key (a kiosk's, or a site's made before). */
  public_key: Buffer | null
  created_at: number
}

const COLUMNS = 'kid, secret, public_key, created_at'

/** Taken while the current invitation key is made or replaced, so two engines make one. */
const INVITE_KEYS_LOCK = 0x6b696f736b11

/** The keys invitation codes are signed with: the newest signs new codes, every one checks the codes it signed. */
export class InviteKeyRepository {
  constructor(private readonly sql: Sql) {}

  /** Serializes key changes until the transaction ends (on SQLite, BEGIN IMMEDIATE already has). */
  async lock(): Promise<void> {
    if (this.sql.dialect === 'postgres') await this.sql.get('SELECT pg_advisory_xact_lock(?)', [INVITE_KEYS_LOCK])
  }

  /** The site's own newest key (a key a kiosk brought never signs new codes). */
  newest(): Promise<InviteKeyRow | undefined> {
    return this.sql.get<InviteKeyRow>(`SELECT ${COLUMNS} FROM invite_keys WHERE imported_from IS NULL ORDER BY created_at DESC, kid DESC LIMIT 1`)
  }

  /** One of the site's own keys (a key a kiosk brought is found only through its invites: byInvite). */
  byKid(kid: string): Promise<InviteKeyRow | undefined> {
    return this.sql.get<InviteKeyRow>(`SELECT ${COLUMNS} FROM invite_keys WHERE kid = ? AND imported_from IS NULL`, [kid])
  }

  /** The site's own keys with a public half (its Ed25519 keys), oldest first. */
  publicKeys(): Promise<InviteKeyRow[]> {
    return this.sql.all<InviteKeyRow>(`SELECT ${COLUMNS} FROM invite_keys WHERE imported_from IS NULL AND public_key IS NOT NULL ORDER BY created_at, kid`)
  }

  /** The key a kiosk brought that signed this invite's code (the invite came with it); none for the site's own invites. */
  async byInvite(inviteId: string): Promise<Buffer | null> {
    const row = await this.sql.get<{ secret: Buffer }>('SELECT invite_keys.secret FROM invites JOIN invite_keys ON invite_keys.kid = invites.key_kid WHERE invites.id = ?', [inviteId])
    return row?.secret ?? null
  }

  /** A kiosk's key brought when it joined, under a new key id. */
  async insertImported(row: Omit<InviteKeyRow, 'public_key'> & { importedFrom: string }): Promise<void> {
    await this.sql.run('INSERT INTO invite_keys (kid, secret, created_at, imported_from) VALUES (?, ?, ?, ?)', [row.kid, row.secret, row.created_at, row.importedFrom])
  }

  async insert(row: InviteKeyRow): Promise<void> {
    await this.sql.run('INSERT INTO invite_keys (kid, secret, public_key, created_at) VALUES (?, ?, ?, ?)', [row.kid, row.secret, row.public_key, row.created_at])
  }
}
