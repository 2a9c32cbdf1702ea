import type { KioskRecords } from '../../shared/frontdesk-api'
import type { Database } from '../sql/types'
import type { AccountRow } from './accounts-repository'
import type { HostRow } from './hosts-repository'
import type { InviteRow } from './invites-repository'
import { foldRemovals } from './records'
import type { VisitRow } from './visits-repository'
import type { AlertRow, EntryRow } from './watchlist-repository'

/** What a kiosk brought to its site and then removed from its own records, counted by kind (for its log). */
export interface BroughtCounts {
  accounts: number
  watchlist: number
  alerts: number
  hosts: number
  visits: number
  invites: number
}

export const broughtCounts = (records: KioskRecords): BroughtCounts => ({
  accounts: records.accounts.length,
  watchlist: records.watchlist.length,
  alerts: records.alerts.length,
  hosts: records.hosts.length,
  visits: records.visits.length,
  invites: records.invites.length,
})

/**
 * A kiosk on its own, joining a site with its records: everything its frontdesk.db holds of
 * staff (accounts with their PIN hashes), the watchlist (entries, and alerts with their dismissal),
 * hosts, visits and invites, read in one transaction (one moment), and the keychain's invitation
 * key when there are invites (their codes were signed with it). Sessions stay: they end with the
 * accounts when these are removed.
 */
export async function readKioskRecords(db: Database, inviteKey: () => Promise<Buffer>): Promise<KioskRecords> {
  const rows = await db.transaction(async (tx) => ({
    accounts: await tx.all<AccountRow>('SELECT * FROM accounts ORDER BY created_at, name'),
    entries: await tx.all<EntryRow>('SELECT * FROM watchlist_entries ORDER BY added_at, person_uuid'),
    alerts: await tx.all<AlertRow>('SELECT * FROM watchlist_alerts ORDER BY at, id'),
    hosts: await tx.all<HostRow>('SELECT * FROM hosts ORDER BY created_at, id'),
    visits: await tx.all<VisitRow>('SELECT * FROM visits ORDER BY checked_in_at, id'),
    invites: await tx.all<InviteRow>('SELECT * FROM invites ORDER BY created_at, id'),
  }))
  return {
    accounts: rows.accounts.map((row) => ({
      name: row.name,
      role: row.role,
      salt: Buffer.from(row.salt).toString('base64'),
      hash: Buffer.from(row.hash).toString('base64'),
      params: row.params,
      disabled: row.disabled === 1,
      createdAt: row.created_at,
      lastSignInAt: row.last_sign_in_at,
    })),
    watchlist: rows.entries.map((row) => ({ personUuid: row.person_uuid, email: row.email, reason: row.reason, addedBy: row.added_by, addedAt: row.added_at })),
    alerts: rows.alerts.map((row) => ({
      id: row.id,
      at: row.at,
      place: row.place,
      personUuid: row.person_uuid,
      email: row.email,
      givenEmail: row.given_email,
      reason: row.reason,
      dismissedAt: row.dismissed_at,
      dismissedBy: row.dismissed_by,
    })),
    hosts: rows.hosts.map((row) => ({ id: row.id, name: row.name, email: row.email, webhookUrl: row.webhook_url, createdAt: row.created_at })),
    visits: rows.visits.map((row) => ({
      id: row.id,
      personUuid: row.person_uuid,
      email: row.email,
      firstName: row.first_name,
      hostId: row.host_id,
      hostName: row.host_name,
      purpose: row.purpose,
      checkedInAt: row.checked_in_at,
      checkedOutAt: row.checked_out_at,
      checkedOutBy: row.checked_out_by,
      inviteId: row.invite_id,
    })),
    invites: rows.invites.map((row) => ({
      id: row.id,
      email: row.email,
      hostId: row.host_id,
      hostName: row.host_name,
      date: row.visit_date,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      createdBy: row.created_by,
      usedAt: row.used_at,
      visitId: row.visit_id,
      revokedAt: row.revoked_at,
    })),
    inviteKey: rows.invites.length > 0 ? (await inviteKey()).toString('base64') : null,
  }
}

/**
 * Once the site has them: the rows the kiosk brought are removed from its frontdesk.db, in one
 * transaction (each by the key it was read with, so a row written since stays), their staff
 * sessions with the accounts, and the WAL folded so the removed rows do not linger in it.
 */
export async function removeBroughtRecords(db: Database, brought: KioskRecords): Promise<BroughtCounts> {
  await db.transaction(async (tx) => {
    for (const { name } of brought.accounts) {
      await tx.run('DELETE FROM staff_sessions WHERE account_key IN (SELECT name_key FROM accounts WHERE name = ?)', [name])
      await tx.run('DELETE FROM accounts WHERE name = ?', [name])
    }
    for (const { personUuid } of brought.watchlist) await tx.run('DELETE FROM watchlist_entries WHERE person_uuid = ?', [personUuid])
    for (const { id } of brought.alerts) await tx.run('DELETE FROM watchlist_alerts WHERE id = ?', [id])
    for (const { id } of brought.hosts) await tx.run('DELETE FROM hosts WHERE id = ?', [id])
    for (const { id } of brought.visits) await tx.run('DELETE FROM visits WHERE id = ?', [id])
    for (const { id } of brought.invites) await tx.run('DELETE FROM invites WHERE id = ?', [id])
  })
  await foldRemovals(db)
  return broughtCounts(brought)
}
