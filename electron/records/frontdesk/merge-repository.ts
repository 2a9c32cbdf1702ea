import type { KioskRecords } from '../../shared/frontdesk-api'
import type { Sql } from '../sql/types'
import { emailKey, uuidKey } from './watchlist-repository'

type BroughtVisit = KioskRecords['visits'][number]
type BroughtInvite = KioskRecords['invites'][number]

/**
 * The rows a kiosk brings when it joins, written as it kept them. Only an id already here is
 * skipped (the same row): a second open visit of one person is NOT skipped but refused by the
 * partial unique index (the merge ends the brought one first, so only a check-in racing the join
 * can cause it, and then the join fails whole and the kiosk keeps its records).
 */
export class MergeRepository {
  constructor(private readonly sql: Sql) {}

  async insertVisit(visit: BroughtVisit, kioskId: string): Promise<boolean> {
    const changed = await this.sql.run(
      `INSERT INTO visits (id, person_uuid, email, email_key, first_name, host_id, host_name, purpose, checked_in_at, checked_out_at, checked_out_by, kiosk_id, invite_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
      [
        visit.id,
        uuidKey(visit.personUuid),
        visit.email,
        emailKey(visit.email),
        visit.firstName,
        visit.hostId,
        visit.hostName,
        visit.purpose,
        visit.checkedInAt,
        visit.checkedOutAt,
        visit.checkedOutBy,
        kioskId,
        visit.inviteId,
      ],
    )
    return changed > 0
  }

  /** `keyKid`: the key the kiosk brought, which signed this invite's code (null: it brought none). */
  async insertInvite(invite: BroughtInvite, keyKid: string | null): Promise<boolean> {
    const changed = await this.sql.run(
      `INSERT INTO invites (id, email, email_key, host_id, host_name, visit_date, created_at, expires_at, created_by, used_at, visit_id, revoked_at, key_kid)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
      [
        invite.id,
        invite.email,
        emailKey(invite.email),
        invite.hostId,
        invite.hostName,
        invite.date,
        invite.createdAt,
        invite.expiresAt,
        invite.createdBy,
        invite.usedAt,
        invite.visitId,
        invite.revokedAt,
        keyKid,
      ],
    )
    return changed > 0
  }
}
