import type { Change } from '../store/change-log'
import type { Store } from '../store/store'
import { settleAfterLoad } from './scan-pool'
import { storedVector } from './template-codec'
import type { TemplateCache } from './template-cache'

/**
 * How long an identify on a site waits for its engine to apply what other engines committed
 * before it was asked; past that (the database away: a failover) it answers from the caches as
 * they are.
 */
const UP_TO_DATE_WAIT_MS = 1_000
/**
 * Changes applied again after the change listener reconnects: far more than a lost primary's
 * unreplicated tail can hold (the commits in flight when it died), and cheap (one row read each).
 */
const REWIND = 256
/** Changes read per statement while catching up. */
const PAGE = 2000
/** The log keeps this many changes; a process further behind than that reloads its caches. */
export const CHANGES_KEPT = 100_000

/**
 * Keeps the identify caches (one per installed template type) in step with the database. Every
 * write that changes what identify can find logs a change in its transaction (change-log.ts);
 * catchUp applies the changes after the last one applied, each by re-reading that template's
 * current row, so applying one twice, or out of a burst's order, ends in the same state. A
 * process behind the log's floor, or told to by /createcache (a change with no person), reloads
 * the type. Nothing else reloads: an enrollment costs every process one row read.
 */
export class IdentifyCaches {
  private applied = 0
  private rewinding = false
  private current: Promise<void> | null = null
  private queued: Promise<void> | null = null
  /** Templates left out because they could not be read (another key, an old format), since the last full load. */
  unreadable = 0

  constructor(
    private readonly store: Store,
    private readonly caches: ReadonlyMap<string, TemplateCache>,
  ) {}

  /**
   * Before a search on a site (several engines on one database): applies what was committed before
   * the call, so an enrollment another engine acknowledged a moment ago is found here too. A
   * process alone on its database applies its own writes before answering them: nothing to wait for.
   */
  async upToDate(): Promise<void> {
    if (this.store.db.dialect !== 'postgres') return
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, UP_TO_DATE_WAIT_MS)))
    await Promise.race([this.catchUp().catch(() => {}), late])
    clearTimeout(timer)
  }

  /**
   * Applies the last REWIND changes again at the next pass: called when the change listener has
   * reconnected, as after a failover. A primary lost with commits not yet replicated may have
   * shown this process changes the new primary never had, and that primary numbers its own next
   * changes from where its copy of the sequence stood: the same seqs, for other changes. Applying
   * a change twice is harmless (it re-reads the template's row).
   */
  rewind(): void {
    this.rewinding = true
  }

  /** The last change applied. */
  get seq(): number {
    return this.applied
  }

  /** Loads every cache from the database, then applies what changed while it did. */
  async load(): Promise<void> {
    await this.reloadAll()
    await this.catchUp()
  }

  /**
   * Applies every change logged so far. Resolves once a pass that began after this call has
   * finished, so a writer that calls it after its commit finds its own change applied.
   */
  catchUp(): Promise<void> {
    if (!this.current) {
      this.current = this.pass().finally(() => (this.current = null))
      return this.current
    }
    this.queued ??= this.current
      .catch(() => {})
      .then(() => {
        this.queued = null
        return this.catchUp()
      })
    return this.queued
  }

  private async pass(): Promise<void> {
    const floor = await this.store.changes.floor()
    if (this.rewinding) {
      this.rewinding = false
      // Below the floor would reload every cache: what was pruned was applied long ago.
      this.applied = Math.max(floor, Math.min(this.applied, await this.store.changes.head()) - REWIND)
    }
    if (this.applied < floor) await this.reloadAll()
    for (;;) {
      const changes = await this.store.changes.after(this.applied, PAGE)
      const reloads = new Set(changes.filter((c) => c.personId === null).map((c) => c.templateType))
      for (const change of changes) {
        if (!reloads.has(change.templateType)) await this.apply(change)
      }
      if (reloads.size > 0) await this.reload(reloads)
      if (changes.length > 0) this.applied = Math.max(this.applied, changes[changes.length - 1]!.seq)
      if (changes.length < PAGE) break
    }
    const head = await this.store.changes.head()
    if (head - (await this.store.changes.floor()) > 2 * CHANGES_KEPT) await this.store.transaction((tx) => tx.changes.prune(CHANGES_KEPT))
  }

  private async apply(change: Change): Promise<void> {
    const cache = this.caches.get(change.templateType)
    if (!cache || change.personId === null || change.templateContext === null) return
    const stored = await this.store.templates.one(change.personId, change.templateType, change.templateContext)
    const vector = stored ? storedVector(stored.data) : null
    if (vector) cache.put(stored!.personId, change.templateContext, vector)
    else cache.remove(change.personId, change.templateContext)
  }

  /** Reloads every type: the log's head is read first, so what changes meanwhile is applied again after. */
  private async reloadAll(): Promise<void> {
    const head = await this.store.changes.head()
    this.unreadable = 0
    await this.reload([...this.caches.keys()])
    this.applied = Math.max(this.applied, head)
  }

  private async reload(types: Iterable<string>): Promise<void> {
    for (const templateType of types) {
      const cache = this.caches.get(templateType)
      if (!cache) continue
      // Built aside and swapped in: identify keeps searching the old rows meanwhile.
      const fresh = cache.emptyLike()
      fresh.reserve(await this.store.templates.countOfType(templateType))
      this.unreadable += await fresh.fill(this.store.templates.sealedPagesOfType(templateType), this.store.templates.sealKey)
      cache.adopt(fresh)
    }
    settleAfterLoad()
  }
}
