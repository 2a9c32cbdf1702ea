import Database from 'better-sqlite3'
import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs'
import { join } from 'node:path'

/**
 * A kiosk's visits.db and invites.db as kiosks kept them before the front desk's records held
 * visits, hosts and invites (electron/services/visits/store.ts, invites/store.ts and invites/
 * tokens.ts as they were), frozen here to make such files in tests: the front desk's records
 * import them on their first open. Never how the kiosk keeps its visits or invites now.
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

const visitMigrations = [
  `CREATE TABLE hosts (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     email TEXT,
     webhook_url TEXT,
     created_at INTEGER NOT NULL
   );
   CREATE TABLE visits (
     id TEXT PRIMARY KEY,
     person_uuid TEXT NOT NULL,
     email TEXT NOT NULL,
     first_name TEXT,
     host_id TEXT,
     host_name TEXT,
     purpose TEXT NOT NULL,
     checked_in_at INTEGER NOT NULL,
     checked_out_at INTEGER,
     checked_out_by TEXT CHECK (checked_out_by IN ('visitor', 'staff')),
     kiosk_id TEXT NOT NULL,
     invite_id TEXT
   );
   CREATE INDEX visits_open ON visits (checked_out_at, checked_in_at);
   CREATE INDEX visits_person ON visits (person_uuid);
   CREATE INDEX visits_in ON visits (checked_in_at);`,
  `ALTER TABLE visits ADD COLUMN arrival_queued_at INTEGER;
   UPDATE visits SET arrival_queued_at = checked_in_at WHERE host_id IS NOT NULL;`,
]

export interface OldHost {
  id: string
  name: string
  email: string | null
  webhookUrl: string | null
}

/** `migrations`: how many of the old file's migrations it got (1: a kiosk from before arrivals were marked). */
export function openOldVisits(options: { dir: string; now: () => number; migrations?: 1 | 2 }) {
  const { now } = options
  const db = openPrivateDatabase(options.dir, 'visits.db', visitMigrations.slice(0, options.migrations ?? 2))
  return {
    addHost(fields: Omit<OldHost, 'id'>): OldHost {
      const id = randomUUID()
      db.prepare('INSERT INTO hosts (id, name, email, webhook_url, created_at) VALUES (?, ?, ?, ?, ?)').run(id, fields.name, fields.email, fields.webhookUrl, now())
      return { id, ...fields }
    },
    checkIn(input: { personUuid: string; email: string; firstName: string | null; host: OldHost | null; purpose: string; kioskId: string; inviteId?: string | null }): string {
      const id = randomUUID()
      db.prepare(
        `INSERT INTO visits (id, person_uuid, email, first_name, host_id, host_name, purpose, checked_in_at, kiosk_id, invite_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(id, input.personUuid, input.email, input.firstName, input.host?.id ?? null, input.host?.name ?? null, input.purpose, now(), input.kioskId, input.inviteId ?? null)
      return id
    },
    arrivalQueued: (id: string) => void db.prepare('UPDATE visits SET arrival_queued_at = ? WHERE id = ?').run(now(), id),
    checkOut: (id: string, by: 'visitor' | 'staff') => void db.prepare('UPDATE visits SET checked_out_at = ?, checked_out_by = ? WHERE id = ? AND checked_out_at IS NULL').run(now(), by, id),
    close: () => db.close(),
  }
}

const inviteMigrations = [
  `CREATE TABLE invites (
     id TEXT PRIMARY KEY,
     email TEXT NOT NULL,
     host_id TEXT,
     host_name TEXT,
     visit_date TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL,
     created_by TEXT,
     used_at INTEGER,
     visit_id TEXT,
     revoked_at INTEGER
   );
   CREATE INDEX invites_created ON invites (created_at);`,
]

/** The old invites and the codes the kiosk's keychain key signed for them (`KI1.<id>.<expiry>.<mac>`). */
export function openOldInvites(options: { dir: string; now: () => number; key: Buffer }) {
  const db = openPrivateDatabase(options.dir, 'invites.db', inviteMigrations)
  return {
    add(invite: { email: string; hostId: string | null; hostName: string | null; date: string; expiresAt: number; createdBy: string | null }): { id: string; token: string } {
      const id = randomBytes(16).toString('base64url')
      db.prepare(
        `INSERT INTO invites (id, email, host_id, host_name, visit_date, created_at, expires_at, created_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(id, invite.email, invite.hostId, invite.hostName, invite.date, options.now(), invite.expiresAt, invite.createdBy)
      const body = `KI1.${id}.${Math.floor(invite.expiresAt / 1000).toString(36)}`
      return { id, token: `${body}.${createHmac('sha256', options.key).update(body, 'utf8').digest('base64url')}` }
    },
    use: (id: string, visitId: string) =>
      db.prepare('UPDATE invites SET used_at = ?, visit_id = ? WHERE id = ? AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?').run(options.now(), visitId, id, options.now()).changes === 1,
    close: () => db.close(),
  }
}

/** host-notices.db as the kiosk's own host notices' queue made it (electron/services/host-notices/database.ts, before the one delivery queue). */
const hostNoticeMigrations = [
  `CREATE TABLE items (
     seq INTEGER PRIMARY KEY,
     id TEXT NOT NULL UNIQUE,
     dedupe_key TEXT NOT NULL UNIQUE,
     visit_id TEXT NOT NULL,
     channel TEXT NOT NULL CHECK (channel IN ('email', 'webhook')),
     host_name TEXT NOT NULL,
     payload TEXT,
     state TEXT NOT NULL CHECK (state IN ('queued', 'in-flight', 'delivered', 'failed')),
     attempts INTEGER NOT NULL DEFAULT 0,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     next_attempt_at INTEGER,
     delivered_at INTEGER,
     error_code TEXT,
     error_message TEXT,
     claimed_by TEXT
   );
   CREATE INDEX items_by_state ON items(state, next_attempt_at, seq);
   CREATE INDEX items_by_visit ON items(visit_id);
   CREATE TABLE lease (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     owner TEXT NOT NULL,
     pid INTEGER NOT NULL,
     expires_at INTEGER NOT NULL
   );
   CREATE TABLE config (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     smtp TEXT
   );`,
]

export interface OldNotice {
  visitId: string
  channel: 'email' | 'webhook'
  hostName: string
  /** The ArrivalNotice as the old store kept it (JSON); null once delivered. */
  payload: string | null
  state: 'queued' | 'in-flight' | 'delivered' | 'failed'
  attempts?: number
  error?: { code: string; message: string }
}

export function openOldHostNotices(options: { dir: string; now: () => number }) {
  const { now } = options
  const db = openPrivateDatabase(options.dir, 'host-notices.db', hostNoticeMigrations)
  return {
    add(notice: OldNotice): string {
      const id = randomUUID()
      const at = now()
      db.prepare(
        `INSERT INTO items (id, dedupe_key, visit_id, channel, host_name, payload, state, attempts, created_at, updated_at, next_attempt_at, delivered_at, error_code, error_message, claimed_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        id,
        `${notice.visitId}/${notice.channel}`,
        notice.visitId,
        notice.channel,
        notice.hostName,
        notice.payload,
        notice.state,
        notice.attempts ?? 0,
        at,
        at,
        notice.state === 'queued' ? at : null,
        notice.state === 'delivered' ? at : null,
        notice.error?.code ?? null,
        notice.error?.message ?? null,
        notice.state === 'in-flight' ? 'old-sender' : null,
      )
      return id
    },
    setSmtp: (smtp: string) => void db.prepare('INSERT INTO config (id, smtp) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET smtp = excluded.smtp').run(smtp),
    close: () => db.close(),
  }
}
