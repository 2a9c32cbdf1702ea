import type { SiteKiosk } from '../../shared/frontdesk-api'
import type { Sql } from '../sql/types'

interface KioskRow {
  id: string
  name: string
  joined_at: number
  last_seen_at: number | null
  removed_at: number | null
}

const kioskOf = (row: KioskRow): SiteKiosk => ({ id: row.id, name: row.name, joinedAt: row.joined_at, lastSeenAt: row.last_seen_at })

/**
 * How stale a kiosk's last-seen time may get: every call of a kiosk asks seenKiosk, and writing
 * the time on each would make every read a write; the Kiosks screen shows minutes, not seconds.
 */
export const LAST_SEEN_GRANULARITY_MS = 10_000

/** The site's paired kiosks. A removed kiosk's row stays (alerts and visits name it); it is only marked. */
export class KioskRepository {
  constructor(private readonly sql: Sql) {}

  async insert(kiosk: SiteKiosk): Promise<void> {
    await this.sql.run('INSERT INTO kiosks (id, name, joined_at, last_seen_at) VALUES (?, ?, ?, ?)', [kiosk.id, kiosk.name, kiosk.joinedAt, kiosk.lastSeenAt])
  }

  async list(): Promise<SiteKiosk[]> {
    return (await this.sql.all<KioskRow>('SELECT * FROM kiosks WHERE removed_at IS NULL ORDER BY joined_at, name, id')).map(kioskOf)
  }

  /** The kiosk's name, removed or not (an alert raised there names it); null for an id the site never paired. */
  async nameOf(id: string): Promise<string | null> {
    return (await this.sql.get<{ name: string }>('SELECT name FROM kiosks WHERE id = ?', [id]))?.name ?? null
  }

  /** The kiosk when it is paired and not removed, its last-seen time brought up to `at` (to LAST_SEEN_GRANULARITY_MS). */
  async seen(id: string, at: number): Promise<SiteKiosk | null> {
    await this.sql.run('UPDATE kiosks SET last_seen_at = ? WHERE id = ? AND removed_at IS NULL AND (last_seen_at IS NULL OR last_seen_at <= ?)', [
      at,
      id,
      at - LAST_SEEN_GRANULARITY_MS,
    ])
    const row = await this.sql.get<KioskRow>('SELECT * FROM kiosks WHERE id = ? AND removed_at IS NULL', [id])
    return row ? kioskOf(row) : null
  }

  /** False when there is no such kiosk, or it was removed already. */
  async remove(id: string, at: number): Promise<boolean> {
    return (await this.sql.run('UPDATE kiosks SET removed_at = ? WHERE id = ? AND removed_at IS NULL', [at, id])) > 0
  }
}
