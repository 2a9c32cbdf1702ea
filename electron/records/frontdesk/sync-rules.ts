import { KioskError } from '../../shared/errors'
import { PULL_PAGE_ROWS, type PullOp, type PullResult, type SyncMutation } from '../../shared/site-sync'
import { ChangesRepository, type FrontDeskChange } from './changes-repository'
import type { FrontDesk } from './front-desk'
import { KioskMutationsRepository } from './mutations-repository'
import type { FrontDeskRecords, RulesContext } from './records'
import { uuidKey } from './watchlist-repository'

type SyncRules = Pick<FrontDesk, 'syncPull' | 'syncPush' | 'changesHead' | 'pruneChanges'>

/**
 * The site's side of its kiosks' copies (electron/shared/site-sync.ts). A pull sends each changed
 * row as it is now, so a change sent twice, or a row read newer than the cookie says, is harmless;
 * a push applies each act once, in the transaction that records it as the kiosk's last.
 */
export function syncRules(context: RulesContext): SyncRules {
  const { now } = context

  /** A nudge after the commit: the alert is in the records whether or not a listener hears it. */
  const announce: RulesContext['announce'] = (event) => {
    try {
      context.announce(event)
    } catch {
      // a listener's fault must not fail a push that is done
    }
  }

  /** Every row of every topic, read after the head: each at least as new as the cookie says. */
  async function everything(records: FrontDeskRecords): Promise<PullOp[]> {
    const entries = await records.watchlist.list()
    const visits = await records.visits.onSite()
    const kiosks = await records.kiosks.list()
    return [
      ...entries.map((value): PullOp => ({ topic: 'watchlist', key: value.personUuid, value })),
      ...visits.map((value): PullOp => ({ topic: 'visit', key: value.id, value })),
      ...kiosks.map(({ id, name }): PullOp => ({ topic: 'kiosk', key: id, value: { id, name } })),
    ]
  }

  /** Each changed row once, in the order of its first change, as it is now (null: gone, ended or removed). */
  async function currentRows(records: FrontDeskRecords, changes: readonly FrontDeskChange[]): Promise<PullOp[]> {
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
      } else {
        kiosks ??= new Map((await records.kiosks.list()).map((k) => [k.id, k.name]))
        const name = kiosks.get(key)
        ops.push({ topic, key, value: name === undefined ? null : { id: key, name } })
      }
    }
    return ops
  }

  async function apply(records: FrontDeskRecords, kioskId: string, mutation: SyncMutation): Promise<string | null> {
    // One kind today; the union makes a new kind a compile error here until it is applied.
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
        return inserted ? mutation.id : null
      }
    }
  }

  async function pullPage(records: FrontDeskRecords, changes: ChangesRepository, cookie: number, lastMutationSeq: number): Promise<PullResult> {
    if (cookie > 0) {
      const rows = await changes.after(cookie, PULL_PAGE_ROWS)
      // The floor after the rows: a prune that committed while they were read shows here (PostgreSQL
      // reads each statement afresh), and the kiosk starts over rather than miss what it removed.
      if (cookie >= (await changes.floor()) && cookie <= (await changes.head())) {
        return { cookie: rows.at(-1)?.seq ?? cookie, reset: false, more: rows.length === PULL_PAGE_ROWS, ops: await currentRows(records, rows), lastMutationSeq }
      }
    }
    // The head before the rows: a change after it is in them already, or sent at the next pull.
    const head = await changes.head()
    return { cookie: head, reset: true, more: false, ops: await everything(records), lastMutationSeq }
  }

  return {
    syncPull: (kioskId, cookie) =>
      context.transaction(async (records, sql): Promise<PullResult> => {
        const changes = new ChangesRepository(sql)
        const lastMutationSeq = await new KioskMutationsRepository(sql).lastSeq(kioskId)
        const page = await pullPage(records, changes, cookie, lastMutationSeq)
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
        const alertId = await context.transaction(async (records, sql) => {
          // Recorded first, under the row's lock: another engine applying the same push finds it done.
          if (!(await new KioskMutationsRepository(sql).advance(kioskId, mutation.seq, now()))) return null
          return apply(records, kioskId, mutation)
        })
        if (alertId !== null) announce({ type: 'watchlist-alert', alertId })
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
