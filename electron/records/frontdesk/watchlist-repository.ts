import type { WatchlistAlert, WatchlistEntry, WatchlistPlace } from '../../shared/watchlist'
import type { Sql } from '../sql/types'

export interface EntryRow {
  person_uuid: string
  email: string
  reason: string
  added_by: string
  added_at: number
}

export interface AlertRow {
  id: string
  at: number
  kiosk_id: string
  kiosk_name: string | null
  place: WatchlistPlace
  person_uuid: string
  email: string
  given_email: string | null
  reason: string
  dismissed_at: number | null
  dismissed_by: string | null
}

const entryOf = (row: EntryRow): WatchlistEntry => ({ personUuid: row.person_uuid, email: row.email, reason: row.reason, addedBy: row.added_by, addedAt: row.added_at })
const alertOf = (row: AlertRow): StoredAlert => ({
  id: row.id,
  at: row.at,
  kioskId: row.kiosk_id,
  kioskName: row.kiosk_name,
  place: row.place,
  personUuid: row.person_uuid,
  email: row.email,
  givenEmail: row.given_email,
  reason: row.reason,
})

/** An alert as stored: the person's first name is read with it, from their visits (it changes as they visit). */
export type StoredAlert = Omit<WatchlistAlert, 'firstName'>

/** Person uuids compare in lower case (the person server's are case-insensitive). */
export const uuidKey = (uuid: string): string => uuid.toLowerCase()
/** E-mails compare trimmed and case-folded, as staff and visitors type them. */
export const emailKey = (email: string): string => email.trim().toLowerCase()

/** Alerts staff have not dismissed yet, newest first: a bounded list, never the whole history. */
export const OPEN_ALERTS_SHOWN = 50

/** The watchlist's entries and the alerts they raised. */
export class WatchlistRepository {
  constructor(private readonly sql: Sql) {}

  /** Lists the person, or updates their entry (e-mail, reason, who, when) when they are listed already. */
  async put(entry: WatchlistEntry): Promise<void> {
    await this.sql.run(
      `INSERT INTO watchlist_entries (person_uuid, email, email_key, reason, added_by, added_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (person_uuid) DO UPDATE SET email = excluded.email, email_key = excluded.email_key, reason = excluded.reason, added_by = excluded.added_by, added_at = excluded.added_at`,
      [uuidKey(entry.personUuid), entry.email, emailKey(entry.email), entry.reason, entry.addedBy, entry.addedAt],
    )
  }

  /** An entry as another store kept it (the import of a kiosk's watchlist.db); an entry already here is kept. */
  async insertImported(entry: WatchlistEntry): Promise<boolean> {
    const changed = await this.sql.run(
      `INSERT INTO watchlist_entries (person_uuid, email, email_key, reason, added_by, added_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (person_uuid) DO NOTHING`,
      [uuidKey(entry.personUuid), entry.email, emailKey(entry.email), entry.reason, entry.addedBy, entry.addedAt],
    )
    return changed > 0
  }

  async remove(personUuid: string): Promise<boolean> {
    return (await this.sql.run('DELETE FROM watchlist_entries WHERE person_uuid = ?', [uuidKey(personUuid)])) > 0
  }

  async list(): Promise<WatchlistEntry[]> {
    return (await this.sql.all<EntryRow>('SELECT * FROM watchlist_entries ORDER BY added_at DESC, person_uuid')).map(entryOf)
  }

  async byPerson(personUuid: string): Promise<WatchlistEntry | null> {
    const row = await this.sql.get<EntryRow>('SELECT * FROM watchlist_entries WHERE person_uuid = ?', [uuidKey(personUuid)])
    return row ? entryOf(row) : null
  }

  /** The earliest entry listed under this e-mail. */
  async byEmail(email: string): Promise<WatchlistEntry | null> {
    const row = await this.sql.get<EntryRow>('SELECT * FROM watchlist_entries WHERE email_key = ? ORDER BY added_at, person_uuid LIMIT 1', [emailKey(email)])
    return row ? entryOf(row) : null
  }

  async insertAlert(alert: StoredAlert): Promise<void> {
    await this.sql.run(
      'INSERT INTO watchlist_alerts (id, at, kiosk_id, kiosk_name, place, person_uuid, email, given_email, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [alert.id, alert.at, alert.kioskId, alert.kioskName, alert.place, alert.personUuid, alert.email, alert.givenEmail, alert.reason],
    )
  }

  /** An alert as another store kept it, dismissal included (the import); one already here is kept. */
  async insertImportedAlert(row: AlertRow): Promise<boolean> {
    const changed = await this.sql.run(
      `INSERT INTO watchlist_alerts (id, at, kiosk_id, kiosk_name, place, person_uuid, email, given_email, reason, dismissed_at, dismissed_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
      [row.id, row.at, row.kiosk_id, row.kiosk_name, row.place, row.person_uuid, row.email, row.given_email, row.reason, row.dismissed_at, row.dismissed_by],
    )
    return changed > 0
  }

  async openAlerts(): Promise<StoredAlert[]> {
    return (await this.sql.all<AlertRow>('SELECT * FROM watchlist_alerts WHERE dismissed_at IS NULL ORDER BY at DESC, id LIMIT ?', [OPEN_ALERTS_SHOWN])).map(alertOf)
  }

  /** False when no open alert has this id (unknown, or dismissed already). */
  async dismiss(id: string, by: string, at: number): Promise<boolean> {
    return (await this.sql.run('UPDATE watchlist_alerts SET dismissed_at = ?, dismissed_by = ? WHERE id = ? AND dismissed_at IS NULL', [at, by, id])) > 0
  }

  async pruneDismissedBefore(before: number): Promise<number> {
    return this.sql.run('DELETE FROM watchlist_alerts WHERE dismissed_at IS NOT NULL AND dismissed_at < ?', [before])
  }
}
