import { emailKey } from '../../records/frontdesk/watchlist-repository'
import { KioskError } from '../../shared/errors'
import { PUSH_MAX_MUTATIONS, syncMutationSchema, type QueuedAct, type SiteSyncState, type SyncMutation } from '../../shared/site-sync'
import type { SiteConnection } from '../clients/connect'
import type { NewAct, SiteCopy } from './site-copy'
import { siteCall } from './site-http'

export interface SiteSyncDeps {
  /** Opens the copy (its key is the keychain's): asked once, again only after a failure. */
  openCopy: () => Promise<SiteCopy>
  /** The front desk's id while the kiosk is on a site (`site|<url>`), else null: nothing runs. */
  siteId: () => Promise<string | null>
  /** The site's client and token (its timeouts are the kiosk's settings). */
  connection: () => Promise<SiteConnection>
  /**
   * The servers' id of the person with this e-mail, for an act that names its visitor by e-mail
   * alone: their uuid; 'waiting': their enrollment is still in the outbox (asked again next run);
   * null: on no server and in no outbox (the act can never be applied). A failure is a failed run.
   * Absent: such acts wait.
   */
  personId?: (email: string) => Promise<string | 'waiting' | null>
  now?: () => number
  log: (line: string) => void
  /** Told after every run and every act queued (counts and times only, no personal data): a window opened since hears it within a run. */
  onState?: (state: SiteSyncState) => void
  /** The fallback: a run this often even when the site's events say nothing. */
  intervalMs?: number
}

export interface SiteSync {
  /** The copy of the site this kiosk is on; null off a site. */
  copy(): Promise<SiteCopy | null>
  /** Asks for a run (coalesced: one runs, at most one more waits). */
  request(): void
  /** The site's records changed up to `seq`: a run, unless the copy has them already. */
  recordsChanged(seq: number): void
  /** Runs now, or after the run under way; resolves when a run that began after this call ended. */
  sync(): Promise<void>
  /** Queues an act for the site (kept in the copy's file before this returns), and asks for a run to push it. */
  queue(act: NewAct): Promise<QueuedAct>
  /** What staff screens show; null off a site. */
  state(): Promise<SiteSyncState | null>
  start(): void
  stop(): Promise<void>
}

const DEFAULT_INTERVAL_MS = 30_000
/** A run's bound on pull pages: a site that always says "more" cannot hold the loop. */
const MAX_PAGES = 1_000

/**
 * Keeps a site kiosk's copy up to date and hands the site its acts: push (the waiting acts, in
 * batches, removed once the site says it applied them), then pull (pages until the site says no
 * more), one run at a time. A run comes when the site says its records changed, when its event
 * stream (re)connects (what was said meanwhile is not replayed), when an act is queued, and every
 * `intervalMs` besides. Any failed call ends the run with the copy as it was and the kiosk marked
 * offline (since its first failure); the next run that gets through marks it online.
 */
export function siteSync(deps: SiteSyncDeps): SiteSync {
  const now = deps.now ?? Date.now
  let opened: Promise<SiteCopy> | null = null
  let current: Promise<void> | null = null
  let next: Promise<void> | null = null
  let timer: NodeJS.Timeout | null = null
  let stopped = false

  async function copy(): Promise<SiteCopy | null> {
    if (stopped) return null
    const site = await deps.siteId()
    if (site === null) return null
    opened ??= deps.openCopy().catch((error: unknown) => {
      opened = null
      throw error
    })
    const found = await opened
    if (found.useSite(site)) deps.log('site copy: a new site; the copy starts over')
    return found
  }

  function stateOf(found: SiteCopy): SiteSyncState {
    const state = found.state()
    return { online: state.offlineSince === null, offlineSince: state.offlineSince, copyAsOf: state.pulledAt, ...found.counts() }
  }

  function tell(found: SiteCopy): void {
    deps.onState?.(stateOf(found))
  }

  /** The act with its visitor named by the servers' id (only a visit's act names a visitor). */
  function namedAs(act: QueuedAct, personUuid: string): QueuedAct {
    if (act.kind === 'check-in') return { ...act, args: { ...act.args, person: { ...act.args.person, personUuid } } }
    if (act.kind === 'check-out') return { ...act, args: { ...act.args, person: { ...act.args.person, personUuid } } }
    return act
  }

  /** The person an act names by e-mail alone, if any (the site takes only its own person ids). */
  const unnamed = (act: QueuedAct): string | null => ((act.kind === 'check-in' || act.kind === 'check-out') && act.args.person.personUuid === null ? act.args.person.email : null)

  /**
   * The acts of a batch the site can take, in order: each visitor named by e-mail alone gets their
   * servers' id first (kept with the act). One whose enrollment still waits in the outbox stops the
   * batch there: the acts after it wait too, so the site applies them in the order they were made.
   * One on no server and in no outbox is dropped: no run could ever name it.
   */
  async function named(found: SiteCopy, acts: readonly QueuedAct[]): Promise<{ ready: SyncMutation[]; held: boolean }> {
    const ids = new Map<string, Promise<string | 'waiting' | null>>()
    const ready: SyncMutation[] = []
    for (const act of acts) {
      const email = unnamed(act)
      if (email !== null) {
        const key = emailKey(email)
        // Asked once a run per person: a check-in and its check-out share the answer.
        if (!ids.has(key)) ids.set(key, deps.personId ? deps.personId(email) : Promise.resolve('waiting'))
        const id = await ids.get(key)!
        if (id === 'waiting') return { ready, held: true }
        if (id === null) {
          found.drop(act.seq)
          deps.log(`site copy: a ${act.kind} act (seq ${act.seq}) names a person on no server and in no outbox; dropped`)
          continue
        }
        found.named(act.seq, id)
        ready.push(syncMutationSchema.parse(namedAs(act, id)))
        continue
      }
      ready.push(syncMutationSchema.parse(act))
    }
    return { ready, held: false }
  }

  async function push(found: SiteCopy, site: string, connection: SiteConnection): Promise<void> {
    for (let acts = found.waiting(PUSH_MAX_MUTATIONS); acts.length > 0; acts = found.waiting(PUSH_MAX_MUTATIONS)) {
      const { ready, held } = await named(found, acts)
      if (ready.length > 0) {
        const done = await siteCall(connection, 'syncPush', { body: { mutations: ready } })
        found.acknowledge(site, done.lastMutationSeq)
        // The site applied fewer than it was sent: the rest wait for another run rather than loop here.
        if (done.lastMutationSeq < ready.at(-1)!.seq) throw new KioskError('REJECTED', `The site applied this kiosk's acts up to ${done.lastMutationSeq} of ${ready.at(-1)!.seq}.`)
      }
      // An enrollment still in the outbox: what follows it waits for a run after its delivery.
      if (held) return
    }
  }

  async function pull(found: SiteCopy, site: string, connection: SiteConnection): Promise<void> {
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      // A copy without the accounts or invitations (filled before they were asked for) is pulled whole once: the site sends only their changes after a cookie.
      const cookie = found.accountsCopied() && found.invitesCopied() ? found.state().cookie : 0
      // Asked for on every pull: staff sign in, and invitations are taken, from the copy while the site is away (offline-desk.ts).
      const page = await siteCall(connection, 'syncPull', { query: { accounts: '1', invites: '1', cookie: String(cookie) } })
      if (!found.apply(site, page, now())) return
      if (!page.more) return
      // "More", yet no step forward: asked again on the next run, not in a tight loop.
      if (!page.reset && page.cookie <= cookie) return
    }
  }

  async function once(): Promise<void> {
    let found: SiteCopy | null
    try {
      found = await copy()
    } catch (error) {
      deps.log(`site copy: not opened: ${error instanceof Error ? error.message : 'unknown error'}`)
      return
    }
    if (!found) return
    const site = found.state().site!
    try {
      const connection = await deps.connection()
      // The settings changed under the run: the next one is for the new site.
      if ((await deps.siteId()) !== site) return
      await push(found, site, connection)
      await pull(found, site, connection)
      if (found.state().offlineSince !== null) deps.log('site copy: the site answers again')
      found.markOnline()
    } catch (error) {
      if (found.state().offlineSince === null) deps.log(`site copy: the site did not answer a sync; offline: ${error instanceof Error ? error.message : 'unknown error'}`)
      found.markOffline(now())
    } finally {
      tell(found)
    }
  }

  function sync(): Promise<void> {
    if (stopped) return Promise.resolve()
    if (!current) {
      current = once().finally(() => {
        current = null
      })
      return current
    }
    // One run waits behind the one under way; every request made meanwhile shares it.
    next ??= current.then(() => {
      next = null
      return sync()
    })
    return next
  }

  const request = () => {
    sync().catch((error: unknown) => deps.log(`site copy: sync failed: ${error instanceof Error ? error.message : 'unknown error'}`))
  }

  return {
    copy,
    request,
    sync,
    recordsChanged(seq) {
      void (async () => {
        const found = await copy().catch(() => null)
        if (found && seq <= found.state().cookie) return
        request()
      })()
    },
    async queue(act) {
      const found = await copy()
      if (!found) throw new KioskError('NOT_CONFIGURED', 'This kiosk is not on a site.')
      const queued = found.queue(act, now())
      tell(found)
      request()
      return queued
    },
    async state() {
      const found = await copy().catch(() => null)
      return found ? stateOf(found) : null
    },
    start() {
      if (stopped || timer) return
      timer = setInterval(request, deps.intervalMs ?? DEFAULT_INTERVAL_MS)
      timer.unref()
      request()
    },
    async stop() {
      stopped = true
      if (timer) clearInterval(timer)
      timer = null
      await next?.catch(() => undefined)
      await current?.catch(() => undefined)
      const found = await opened?.catch(() => null)
      opened = null
      found?.close()
    },
  }
}
