import { randomUUID } from 'node:crypto'
import { KioskError } from '../../shared/errors'
import { PULL_PAGE_ROWS, type CopiedAccount, type CopiedInvite, type CopiedInviteKey, type PullOp, type PullResult, type SyncMutation } from '../../shared/site-sync'
import type { Invite } from '../../shared/invites'
import type { InviteAlert } from '../../shared/invite-alerts'
import type { InviteCheckInRefusal } from '../../shared/visits'
import { InviteKeyRepository, type InviteKeyRow } from './invite-keys-repository'
import type { AccountRow } from './accounts-repository'
import { appendSiteAudit } from './audit-trail'
import { ChangesRepository, type FrontDeskChange } from './changes-repository'
import type { FrontDesk, PullAsked } from './front-desk'
import { KioskMutationsRepository } from './mutations-repository'
import { announceSafely, type FrontDeskRecords, type RulesContext } from './records'
import type { CheckInRequest } from './visit-types'
import { admitVisit } from './visits-rules'
import { uuidKey } from './watchlist-repository'
import type { Sql } from '../sql/types'
import type { SiteEvent } from '../../shared/frontdesk-api'

type SyncRules = Pick<FrontDesk, 'syncPull' | 'syncPush' | 'changesHead' | 'pruneChanges'>
type CheckInAct = Extract<SyncMutation, { kind: 'check-in' }>

/** What a kiosk keeps of an account to sign its staff in while the site is away: the PIN's hash, never more. */
const copiedAccount = (row: AccountRow): CopiedAccount => ({
  name: row.name,
  role: row.role,
  salt: row.salt.toString('base64'),
  hash: row.hash.toString('base64'),
  params: row.params,
  disabled: row.disabled === 1,
})

/** What a kiosk keeps of an invitation to take its code while the site is away. */
const copiedInvite = ({ id, email, hostId, hostName, date, expiresAt, usedAt, revokedAt }: Invite): CopiedInvite => ({ id, email, hostId, hostName, date, expiresAt, usedAt, revokedAt })
/** An Ed25519 key's public half; null for a key of no public half (an HMAC key, never sent). */
const copiedInviteKey = (row: Pick<InviteKeyRow, 'kid' | 'public_key'>): CopiedInviteKey | null => (row.public_key ? { kid: row.kid, publicKey: row.public_key.toString('base64') } : null)

/**
 * The site's side of its kiosks' copies (electron/shared/site-sync.ts). A pull sends each changed
 * row as it is now, so a change sent twice, or a row read newer than the cookie says, is harmless;
 * a push applies each act once, in the transaction that records it as the kiosk's last.
 */
export function syncRules(context: RulesContext, notifyHosts = false): SyncRules {
  const { now } = context

  const announce = announceSafely(context.announce)

  /** Every row of every topic (accounts and invitations only when asked), read after the head: each at least as new as the cookie says. */
  async function everything(records: FrontDeskRecords, sql: Sql, asked: PullAsked): Promise<PullOp[]> {
    const entries = await records.watchlist.list()
    const visits = await records.visits.onSite()
    const kiosks = await records.kiosks.list()
    const staff = asked.accounts ? await records.accounts.rows() : []
    const invites = asked.invites ? await records.invites.unexpired(now()) : []
    const keys = asked.invites ? await new InviteKeyRepository(sql).publicKeys() : []
    return [
      ...entries.map((value): PullOp => ({ topic: 'watchlist', key: value.personUuid, value })),
      ...visits.map((value): PullOp => ({ topic: 'visit', key: value.id, value })),
      ...kiosks.map(({ id, name }): PullOp => ({ topic: 'kiosk', key: id, value: { id, name } })),
      ...staff.map((row): PullOp => ({ topic: 'account', key: row.name_key, value: copiedAccount(row) })),
      ...invites.map((invite): PullOp => ({ topic: 'invite', key: invite.id, value: copiedInvite(invite) })),
      ...keys.map((row): PullOp => ({ topic: 'invite-key', key: row.kid, value: copiedInviteKey(row) })),
    ]
  }

  /** Each changed row once, in the order of its first change, as it is now (null: gone, ended or removed); accounts and invitations only when asked. */
  async function currentRows(records: FrontDeskRecords, sql: Sql, changes: readonly FrontDeskChange[], asked: PullAsked): Promise<PullOp[]> {
    const seen = new Set<string>()
    const ops: PullOp[] = []
    // A site has few kiosks: read once, the first time one changed.
    let kiosks: Map<string, string> | null = null
    for (const { topic, key } of changes) {
      if (seen.has(`${topic}\n${key}`)) continue
      seen.add(`${topic}\n${key}`)
      if (topic === 'watchlist') ops.push({ topic, key, value: await records.watchlist.byPerson(key) })
      else if (topic === 'visit') {
        const visit = await records.visits.byId(key)
        ops.push({ topic, key, value: visit && visit.checkedOutAt === null ? visit : null })
      } else if (topic === 'account') {
        if (!asked.accounts) continue
        const row = await records.accounts.byKey(key)
        ops.push({ topic, key, value: row ? copiedAccount(row) : null })
      } else if (topic === 'invite') {
        if (!asked.invites) continue
        const invite = await records.invites.get(key, now())
        ops.push({ topic, key, value: invite ? copiedInvite(invite) : null })
      } else if (topic === 'invite-key') {
        if (!asked.invites) continue
        const row = await new InviteKeyRepository(sql).byKid(key)
        ops.push({ topic, key, value: row ? copiedInviteKey(row) : null })
      } else {
        kiosks ??= new Map((await records.kiosks.list()).map((k) => [k.id, k.name]))
        const name = kiosks.get(key)
        ops.push({ topic, key, value: name === undefined ? null : { id: key, name } })
      }
    }
    return ops
  }

  /** A kiosk's check-in stored without the invitation it took, named with the visit the code went to (if any). */
  async function raiseInviteAlert(records: FrontDeskRecords, kioskId: string, mutation: CheckInAct, inviteId: string, invite: Invite | null, reason: InviteCheckInRefusal): Promise<SiteEvent | null> {
    const first = invite?.visitId ? await records.visits.byId(invite.visitId) : null
    const alert: InviteAlert = {
      id: randomUUID(),
      at: now(),
      inviteId,
      email: invite?.email ?? mutation.args.person.email,
      hostName: invite?.hostName ?? null,
      reason,
      visit: { id: mutation.id, kioskId, kioskName: await records.kiosks.nameOf(kioskId), at: mutation.at },
      firstVisit: first && { id: first.id, kioskId: first.kioskId, kioskName: first.kioskName, at: Date.parse(first.checkedInAt) },
    }
    return (await records.inviteAlerts.insert(alert)) ? { type: 'invite-alert', alertId: alert.id } : null
  }

  /** What an applied act tells the site's listeners (after the commit); null: nothing new. */
  async function apply(records: FrontDeskRecords, sql: Sql, kioskId: string, mutation: SyncMutation): Promise<SiteEvent | null> {
    // The union makes a new kind a compile error here until it is applied.
    switch (mutation.kind) {
      case 'watchlist-alert': {
        const { args } = mutation
        const inserted = await records.watchlist.insertImportedAlert({
          id: mutation.id,
          at: mutation.at,
          kiosk_id: kioskId,
          kiosk_name: await records.kiosks.nameOf(kioskId),
          place: args.place,
          person_uuid: uuidKey(args.personUuid),
          email: args.email,
          given_email: args.givenEmail,
          reason: args.reason,
          dismissed_at: null,
          dismissed_by: null,
        })
        // An id the site has already (sent before under another seq): kept as it is, not announced again.
        return inserted ? { type: 'watchlist-alert', alertId: mutation.id } : null
      }
      case 'check-in': {
        const { args } = mutation
        // Already applied under another seq (a copy made anew): the visit stands as it is.
        if (await records.visits.byId(mutation.id)) return null
        // A host taken out of the directory while the kiosk was away: the visit stands, without one
        // (a kiosk's act is never refused for what changed at the site since).
        const hostId = args.hostId !== null && (await records.hosts.get(args.hostId)) ? args.hostId : null
        const request: CheckInRequest = { person: { ...args.person, personUuid: uuidKey(args.person.personUuid) }, hostId, purpose: args.purpose, inviteToken: null, asLastTime: args.asLastTime, kioskId }
        const made = { id: mutation.id, at: mutation.at, notifyHosts }
        // The host's notices are queued here: the host hears once, when the site learns of the arrival.
        if (args.inviteId === undefined) {
          await admitVisit(records, sql, request, undefined, made)
          return null
        }
        // The invitation the kiosk took from its copy, as of the act's time. Used meanwhile (at another
        // kiosk away from the site too), revoked, ended or forgotten: the visitor was let in, so the
        // visit stands without it, and staff are told.
        const invite = await records.invites.get(args.inviteId, mutation.at)
        const admitted = await admitVisit(records, sql, request, invite && { inviteId: invite.id, expiresAt: invite.expiresAt }, made)
        if (admitted.outcome.outcome !== 'invite-refused') return null
        const stored = await admitVisit(records, sql, request, undefined, made)
        // Only a visit stored without its code (none is stored for a person found on site meanwhile).
        if (stored.outcome.outcome !== 'checked-in' || stored.outcome.alreadyOnSite) return null
        return raiseInviteAlert(records, kioskId, mutation, args.inviteId, invite, admitted.outcome.reason)
      }
      case 'staff-sign-in': {
        // Audited with the act: the entry says when it happened at the kiosk (the chain's own time is now).
        const { args } = mutation
        await appendSiteAudit(
          sql,
          { kioskId, action: 'sign-in', outcome: 'ok', role: args.role, account: args.account, detail: `signed in at the kiosk while the site was away, ${new Date(mutation.at).toISOString()}` },
          now(),
        )
        return null
      }
      case 'check-out': {
        const { args, at } = mutation
        if (await records.visits.end(args.visitId, 'visitor', at)) return null
        // Not open under that id (the site had them on site already when the check-in came, or staff
        // ended it): the person's open visit ends, when it began before the check-out was made.
        const open = await records.visits.openOf(args.person.personUuid)
        if (open && Date.parse(open.checkedInAt) <= at) await records.visits.end(open.id, 'visitor', at)
        return null
      }
    }
  }

  async function pullPage(records: FrontDeskRecords, sql: Sql, changes: ChangesRepository, cookie: number, lastMutationSeq: number, asked: PullAsked): Promise<PullResult> {
    if (cookie > 0) {
      const rows = await changes.after(cookie, PULL_PAGE_ROWS)
      // The floor after the rows: a prune that committed while they were read shows here (PostgreSQL
      // reads each statement afresh), and the kiosk starts over rather than miss what it removed.
      if (cookie >= (await changes.floor()) && cookie <= (await changes.head())) {
        return { cookie: rows.at(-1)?.seq ?? cookie, reset: false, more: rows.length === PULL_PAGE_ROWS, ops: await currentRows(records, sql, rows, asked), lastMutationSeq }
      }
    }
    // The head before the rows: a change after it is in them already, or sent at the next pull.
    const head = await changes.head()
    return { cookie: head, reset: true, more: false, ops: await everything(records, sql, asked), lastMutationSeq }
  }

  return {
    syncPull: (kioskId, cookie, asked = {}) =>
      context.transaction(async (records, sql): Promise<PullResult> => {
        const changes = new ChangesRepository(sql)
        const lastMutationSeq = await new KioskMutationsRepository(sql).lastSeq(kioskId)
        const page = await pullPage(records, sql, changes, cookie, lastMutationSeq, asked)
        // For the Kiosks screen: how far this kiosk has been sent (a kiosk that failed to apply it says a lower cookie next time).
        await records.kiosks.synced(kioskId, page.cookie, now())
        return page
      }),

    async syncPush(kioskId, mutations) {
      const sorted = [...mutations].sort((a, b) => a.seq - b.seq)
      for (let i = 1; i < sorted.length; i++) {
        if (sorted[i]!.seq === sorted[i - 1]!.seq) throw new KioskError('INVALID_INPUT', `Two acts in this push have the same sequence number (${sorted[i]!.seq}): each act needs its own.`)
      }
      const applied = new KioskMutationsRepository(context.db)
      const last = await applied.lastSeq(kioskId)
      for (const mutation of sorted) {
        if (mutation.seq <= last) continue
        const event = await context.transaction(async (records, sql) => {
          // Recorded first, under the row's lock: another engine applying the same push finds it done.
          if (!(await new KioskMutationsRepository(sql).advance(kioskId, mutation.seq, now()))) return null
          return apply(records, sql, kioskId, mutation)
        })
        if (event !== null) announce(event)
      }
      return { lastMutationSeq: await applied.lastSeq(kioskId) }
    },

    changesHead: () => new ChangesRepository(context.db).head(),

    async pruneChanges(keep) {
      if (!Number.isSafeInteger(keep) || keep < 0) throw new KioskError('INVALID_INPUT', 'Keep a whole number of changes, 0 or more.')
      return context.transaction((_records, sql) => new ChangesRepository(sql).prune(keep))
    },
  }
}
