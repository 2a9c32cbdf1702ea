import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { z } from 'zod'
import { KioskError } from '../../shared/errors'
import { usesRemoteServers, type KioskSettings } from '../../shared/settings'
import type { identifyVisitorInput, IdentifyVisitorResult, OfflineCheck, ReplicaHeldRemovals, ReplicaStatus, ReplicaSyncResult, verifyVisitorInput, VerifyVisitorResult } from '../../shared/workflows'
import type { Backend } from '../backend'
import { enrollVisitor } from '../workflows/enroll-visitor'
import { identifyVisitor } from '../workflows/identify-visitor'
import { checkIdentity, identityVerdict } from '../workflows/identity-checks'
import { removeVisitor } from '../workflows/remove-visitor'
import { DAY_MS, enrollmentAges, newestTemplateAt } from '../workflows/retention-purge'
import { decoyPersonId, verifyVisitor } from '../workflows/verify-visitor'
import { REPLICA_CONTEXT } from '../../shared/template-context'

/** Every replica write replaces the person's one local template: the newest face confirmed here. */
export { REPLICA_CONTEXT } from '../../shared/template-context'

/** Why a record leaves the replica, for the audit entry the caller writes. */
export type ReplicaRemoval = { userId: string; personUuid: string; why: string }

export interface ReplicaDeps {
  /** The folder the local engine keeps the replica in (remote mode). */
  dir: string
  settings: () => Promise<KioskSettings>
  /** The kiosk's own engine for this tenant and the kiosk's own template type, started on demand. */
  local: () => Promise<Backend>
  /** The remote servers, for the sync. */
  remote: () => Promise<Backend>
  /** The e-mails whose enrollments wait in the outbox: not on the servers yet, but not removed either. */
  pending: () => Promise<Set<string>>
  /** Removes one record by the removal rule, audited as the system's act. */
  remove: (local: Backend, record: ReplicaRemoval) => Promise<unknown>
  /** Stops the local engine and deletes the replica's folder. */
  erase: () => Promise<void>
  now: () => number
  log: (line: string) => void
}

export type Replica = ReturnType<typeof createReplica>

/**
 * The offline replica (remote mode, opt-in): a local copy, in the kiosk's own engine, of the faces
 * enrolled or verified through this kiosk, so Verify and Identify still decide when the servers
 * cannot be reached. Writes happen after the visitor's act, one at a time, and never fail it.
 */
export function createReplica(deps: ReplicaDeps) {
  let chain: Promise<unknown> = Promise.resolve()
  /** One replica change at a time, in order; decisions wait for the writes before them. */
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work)
    chain = next.catch(() => undefined)
    return next
  }
  const active = async () => {
    const s = await deps.settings()
    return usesRemoteServers(s.mode) && s.offlineReplica
  }
  const stored = () => existsSync(deps.dir)
  // When the replica was last checked against the servers: kept beside it, so a wipe forgets it too.
  const syncFile = join(deps.dir, 'last-sync.json')
  let lastSyncAt: number | null = null
  /** Removals a sync found but held for staff (too many at once), until a sync removes or finds fewer. */
  let held: ReplicaHeldRemovals | null = null
  try {
    lastSyncAt = (JSON.parse(readFileSync(syncFile, 'utf8')) as { at: number }).at
  } catch {
    // never synced (or wiped)
  }
  const synced = (result: ReplicaSyncResult): ReplicaSyncResult => {
    lastSyncAt = result.at
    if (stored()) writeFileSync(syncFile, JSON.stringify({ at: result.at }), { mode: 0o600 })
    return result
  }
  const logged = (what: string) => (error: unknown) => deps.log(`offline replica: ${what} failed: ${error instanceof Error ? error.message : 'unknown error'}`)

  const offlineCheck = (recordAtMs: number | null): OfflineCheck => ({ recordAt: recordAtMs, lastSyncAt })

  /** Keeps the replica within its size: the records confirmed longest ago go first. */
  async function trim(local: Backend, max: number): Promise<void> {
    // A count first: every write ends here, and listing each record's age is only needed past the limit.
    if ((await local.persons.tenantPersons(local.tenantCode, { pageNo: 0, pageSize: 1 })).totalElements <= max) return
    const ages = await enrollmentAges(local)
    const excess = ages.length - max
    if (excess <= 0) return
    ages.sort((a, b) => (a.enrolledAt ?? 0) - (b.enrolledAt ?? 0))
    for (const old of ages.slice(0, excess)) await deps.remove(local, { ...old, why: `offline replica: over ${max} persons` })
  }

  return {
    /** Resolves once the replica changes asked for so far are done. */
    idle: () => chain.then(() => undefined),

    /** True when a decision may fall back to the replica (remote mode, the tenant opted in). */
    active,

    /**
     * After an act: keep the visitor's face locally. 'confirmed': the servers just enrolled or
     * matched it. 'offline': queued for the servers, so the replica's own identity rule decides
     * (a visitor's: no e-mail that already has another face, no face that is someone else's).
     */
    record(userId: string, samples: string[], how: 'confirmed' | 'offline'): Promise<void> {
      return serial(async () => {
        const s = await deps.settings()
        if (!usesRemoteServers(s.mode) || !s.offlineReplica) return
        const local = await deps.local()
        if (how === 'offline') {
          const verdict = identityVerdict(await checkIdentity(local, userId, samples), { staff: false })
          if (!verdict.proceed) return deps.log(`offline replica: a queued enrollment was not kept locally (${verdict.result.outcome})`)
        }
        await enrollVisitor(local, { userId, samples, templateType: local.templateType, templateContext: REPLICA_CONTEXT })
        await trim(local, s.offlineReplicaMaxPersons)
      }).catch(logged('a write'))
    },

    /** The visitor was removed (by staff or the retention): their local record goes too. */
    forget(userId: string): Promise<void> {
      return serial(async () => {
        if (!(await active()) || !stored()) return
        await removeVisitor(await deps.local(), userId)
      }).catch(logged('a removal'))
    },

    /** Verify by e-mail on this device (the replica knows e-mails, not the servers' person ids). */
    verify(input: z.infer<typeof verifyVisitorInput>): Promise<VerifyVisitorResult> {
      return serial(async () => {
        const local = await deps.local()
        const result = await verifyVisitor(local, { ...input, personUuid: undefined })
        // Looked up for nobody too (a decoy): a known e-mail's answer takes no longer than an unknown one's.
        const recordAt = await newestTemplateAt(local, result.person?.uuid ?? decoyPersonId())
        return { ...result, offline: offlineCheck(result.person ? recordAt : null) }
      })
    },

    identify(input: z.infer<typeof identifyVisitorInput>): Promise<IdentifyVisitorResult> {
      return serial(async () => {
        const local = await deps.local()
        const result = await identifyVisitor(local, input)
        const first = result.decision === 'match' ? result.candidates[0] : undefined
        return { ...result, offline: offlineCheck(first ? await newestTemplateAt(local, first.personUuid) : null) }
      })
    },

    /** A face match on this device stores nothing: only when the last sync was. */
    offlineCheck: () => offlineCheck(null),

    /** The retention (days since a record was confirmed) and the size limit, applied now. */
    purge(): Promise<void> {
      return serial(async () => {
        const s = await deps.settings()
        if (!(await active()) || !stored()) return
        const local = await deps.local()
        const cutoff = deps.now() - s.offlineReplicaDays * DAY_MS
        for (const record of await enrollmentAges(local)) {
          if (record.enrolledAt !== null && record.enrolledAt < cutoff) await deps.remove(local, { ...record, why: `offline replica: older than ${s.offlineReplicaDays} days` })
        }
        await trim(local, s.offlineReplicaMaxPersons)
      }).catch(logged('the retention'))
    },

    /**
     * Asks the servers about every replica person: one removed there (or no longer in this tenant)
     * while the kiosk was offline goes from the replica, unless their enrollment still waits in the outbox.
     * A sync that would remove more than a quarter of the replica, and more than a few persons, at
     * once removes nothing: it is held until staff confirm (`confirmed`), which asks the servers again.
     */
    sync(options: { confirmed?: boolean } = {}): Promise<ReplicaSyncResult> {
      return serial(async () => {
        if (!(await active())) throw new KioskError('INVALID_INPUT', 'The offline replica is off: turn it on in Settings (remote mode).')
        const remote = await deps.remote()
        const at = deps.now()
        if (!stored()) {
          held = null
          return synced({ checked: 0, removed: 0, held: 0, at })
        }
        const local = await deps.local()
        const pending = await deps.pending()
        const records = await enrollmentAges(local)
        // Every answer first: a call the servers do not answer as the API does fails the whole sync before anything is removed.
        const gone: typeof records = []
        for (const record of records) {
          const person = await remote.persons.findPersonByUserId(record.userId)
          const inTenant = person ? await remote.persons.tenantPerson(remote.tenantCode, person.uuid) : null
          if (!inTenant && !pending.has(record.userId.toLowerCase())) gone.push(record)
        }
        if (!options.confirmed && tooManyRemovals(gone.length, records.length)) {
          held = { count: gone.length, checked: records.length, at }
          deps.log(`offline replica: a sync would remove ${gone.length} of ${records.length} persons at once; held until staff confirm`)
          return { checked: records.length, removed: 0, held: gone.length, at }
        }
        held = null
        const why = options.confirmed ? 'offline replica: removed on the server (confirmed by staff)' : 'offline replica: removed on the server'
        for (const record of gone) await deps.remove(local, { ...record, why })
        return synced({ checked: records.length, removed: gone.length, held: 0, at })
      })
    },

    async status(): Promise<ReplicaStatus> {
      const enabled = await active()
      const empty = { enabled, persons: 0, bytes: 0, oldestAt: null, newestAt: null, lastSyncAt: null, heldRemovals: null }
      if (!stored()) return empty
      const bytes = folderBytes(deps.dir)
      if (!enabled) return { ...empty, bytes }
      return serial(async () => {
        const stamps = (await enrollmentAges(await deps.local())).map((r) => r.enrolledAt)
        const known = stamps.filter((t): t is number => t !== null)
        return {
          enabled,
          persons: stamps.length,
          bytes,
          oldestAt: known.length > 0 ? Math.min(...known) : null,
          newestAt: known.length > 0 ? Math.max(...known) : null,
          lastSyncAt,
          heldRemovals: held,
        }
      })
    },

    /** Deletes the whole replica (staff's wipe, or the setting turned off or pointed elsewhere). */
    wipe(): Promise<void> {
      return serial(async () => {
        await deps.erase()
        lastSyncAt = null
        held = null
      })
    },

    /** At start-up: a replica left from when it was on goes, unless it is (still) on when its turn comes. */
    dropIfOff(): Promise<void> {
      return serial(async () => {
        if ((await active()) || !stored()) return
        await deps.erase()
        lastSyncAt = null
        held = null
      })
    },
  }
}

/** A sync may remove at most a quarter of the replica at once, or a few persons whatever its size, without staff. */
export const REMOVALS_WITHOUT_STAFF = { share: 0.25, persons: 3 }

/** True when removing `removals` of `records` persons at once needs a staff confirmation. */
export function tooManyRemovals(removals: number, records: number): boolean {
  return removals > REMOVALS_WITHOUT_STAFF.persons && removals > records * REMOVALS_WITHOUT_STAFF.share
}

function folderBytes(dir: string): number {
  let total = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    total += entry.isDirectory() ? folderBytes(path) : statSync(path).size
  }
  return total
}
