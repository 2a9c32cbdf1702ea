import { randomUUID } from 'node:crypto'
import type { WatchlistAlert, WatchlistEntry, WatchlistPlace } from '../../shared/watchlist'
import { openPrivateDatabase } from '../private-database'

export const WATCHLIST_FILE = 'watchlist.db'

const migrations = [
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
  const db = openPrivateDatabase(options.dir, WATCHLIST_FILE, migrations)
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

