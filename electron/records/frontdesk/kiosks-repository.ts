import { kioskHealthReport, type KioskHealth, type KioskHealthReport, type KioskWithCopy, type SiteKiosk } from '../../shared/frontdesk-api'
import { StoreUnavailableError, type Sql } from '../sql/types'

interface KioskRow {
  id: string
  name: string
  joined_at: number
  last_seen_at: number | null
  removed_at: number | null
}

interface ListedRow extends KioskRow {
  synced_cookie: number | null
  synced_at: number | null
  changes_behind: number
  health: string | null
  health_at: number | null
}

/** The stored report, as the schema reads it (a row a newer kiosk wrote in a shape this site does not know reads as none). */
function healthOf(row: ListedRow): KioskHealth | null {
  if (row.health === null || row.health_at === null) return null
  const report = kioskHealthReport.safeParse(JSON.parse(row.health))
  return report.success ? { ...report.data, reportedAt: row.health_at } : null
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

  /** The kiosks not removed, each with how far its copy has come: the changes logged after the cookie it was last sent. */
  async list(): Promise<KioskWithCopy[]> {
    const rows = await this.sql.all<ListedRow>(
      `SELECT k.*, CAST((SELECT count(*) FROM frontdesk_changes c WHERE c.seq > k.synced_cookie) AS INTEGER) AS changes_behind
       FROM kiosks k WHERE k.removed_at IS NULL ORDER BY k.joined_at, k.name, k.id`,
    )
    return rows.map((row) => ({ ...kioskOf(row), copy: row.synced_at === null ? null : { syncedAt: row.synced_at, changesBehind: row.changes_behind }, health: healthOf(row) }))
  }

  /** The site sent the kiosk its changes up to `cookie` (a pull), at `at`. */
  async synced(id: string, cookie: number, at: number): Promise<void> {
    await this.sql.run('UPDATE kiosks SET synced_cookie = ?, synced_at = ? WHERE id = ?', [cookie, at, id])
  }

  /** The kiosk's last health report, at `at`. */
  async reportHealth(id: string, report: KioskHealthReport, at: number): Promise<void> {
    await this.sql.run('UPDATE kiosks SET health = ?, health_at = ? WHERE id = ? AND removed_at IS NULL', [JSON.stringify(report), at, id])
  }

  /** The kiosk's name, removed or not (an alert raised there names it); null for an id the site never paired. */
  async nameOf(id: string): Promise<string | null> {
    return (await this.sql.get<{ name: string }>('SELECT name FROM kiosks WHERE id = ?', [id]))?.name ?? null
  }

  /**
   * The kiosk when it is paired and not removed, its last-seen time brought up to `at` (to
   * LAST_SEEN_GRANULARITY_MS). That time is kept when it can be: while the database takes no writes
   * (a failover) the kiosk is still let in, so that its reads (identify, verify) go on.
   */
  async seen(id: string, at: number): Promise<SiteKiosk | null> {
    try {
      await this.sql.run('UPDATE kiosks SET last_seen_at = ? WHERE id = ? AND removed_at IS NULL AND (last_seen_at IS NULL OR last_seen_at <= ?)', [
        at,
        id,
        at - LAST_SEEN_GRANULARITY_MS,
      ])
    } catch (error) {
      if (!(error instanceof StoreUnavailableError)) throw error
    }
    const row = await this.sql.get<KioskRow>('SELECT * FROM kiosks WHERE id = ? AND removed_at IS NULL', [id])
    return row ? kioskOf(row) : null
  }

  /** False when there is no such kiosk, or it was removed already. */
  async remove(id: string, at: number): Promise<boolean> {
    return (await this.sql.run('UPDATE kiosks SET removed_at = ? WHERE id = ? AND removed_at IS NULL', [at, id])) > 0
  }
}
