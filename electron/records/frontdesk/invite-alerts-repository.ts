import type { InviteAlert } from '../../shared/invite-alerts'
import type { InviteCheckInRefusal } from '../../shared/visits'
import type { Sql } from '../sql/types'
import { OPEN_ALERTS_SHOWN } from './watchlist-repository'

interface AlertRow {
  id: string
  at: number
  invite_id: string
  email: string
  host_name: string | null
  reason: InviteCheckInRefusal
  visit_id: string
  visit_kiosk_id: string
  visit_kiosk_name: string | null
  visit_at: number
  first_visit_id: string | null
  first_kiosk_id: string | null
  first_kiosk_name: string | null
  first_at: number | null
}

const alertOf = (row: AlertRow): InviteAlert => ({
  id: row.id,
  at: row.at,
  inviteId: row.invite_id,
  email: row.email,
  hostName: row.host_name,
  reason: row.reason,
  visit: { id: row.visit_id, kioskId: row.visit_kiosk_id, kioskName: row.visit_kiosk_name, at: row.visit_at },
  firstVisit: row.first_visit_id === null ? null : { id: row.first_visit_id, kioskId: row.first_kiosk_id!, kioskName: row.first_kiosk_name, at: row.first_at! },
})

/** The invitation codes the site would not count for check-ins made at kiosks away from it (invite-alerts-migration.ts). */
export class InviteAlertRepository {
  constructor(private readonly sql: Sql) {}

  /** One alert a visit: a check-in applied again (under another seq) raises none; false then. */
  async insert(alert: InviteAlert): Promise<boolean> {
    const { visit, firstVisit: first } = alert
    const changed = await this.sql.run(
      `INSERT INTO invite_alerts (id, at, invite_id, email, host_name, reason, visit_id, visit_kiosk_id, visit_kiosk_name, visit_at, first_visit_id, first_kiosk_id, first_kiosk_name, first_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      [alert.id, alert.at, alert.inviteId, alert.email, alert.hostName, alert.reason, visit.id, visit.kioskId, visit.kioskName, visit.at, first?.id ?? null, first?.kioskId ?? null, first?.kioskName ?? null, first?.at ?? null],
    )
    return changed > 0
  }

  /** Not dismissed yet, newest first (of those found at once, the later visit first): a bounded list. */
  async open(): Promise<InviteAlert[]> {
    return (await this.sql.all<AlertRow>('SELECT * FROM invite_alerts WHERE dismissed_at IS NULL ORDER BY at DESC, visit_at DESC, id LIMIT ?', [OPEN_ALERTS_SHOWN])).map(alertOf)
  }

  /** False when no open alert has this id (unknown, or dismissed already). */
  async dismiss(id: string, by: string, at: number): Promise<boolean> {
    return (await this.sql.run('UPDATE invite_alerts SET dismissed_at = ?, dismissed_by = ? WHERE id = ? AND dismissed_at IS NULL', [at, by, id])) > 0
  }

  async pruneDismissedBefore(before: number): Promise<number> {
    return this.sql.run('DELETE FROM invite_alerts WHERE dismissed_at IS NOT NULL AND dismissed_at < ?', [before])
  }

  /** The alerts naming any of these visits, as either visit (their visitor forgotten); returns how many. */
  async forgetVisits(visitIds: readonly string[]): Promise<number> {
    let removed = 0
    for (const id of visitIds) removed += await this.sql.run('DELETE FROM invite_alerts WHERE visit_id = ? OR first_visit_id = ?', [id, id])
    return removed
  }
}
