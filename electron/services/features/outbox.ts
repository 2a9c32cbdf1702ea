import type { EngineStatus } from '../../shared/contract'
import type { KioskEvent } from '../../shared/events'
import { usesRemoteServers, type KioskSettings } from '../../shared/settings'
import type { Backend } from '../backend'
import { backendProbe, openOutbox, type DeliverFn, type Outbox } from '../outbox'
import type { CredentialStore } from '../secrets/credentials'
import type { Feature } from './feature'

export interface OutboxDeps {
  dataDir: string
  credentials: Pick<CredentialStore, 'outboxKey'>
  /** Sends one queued enrollment (the enrollment feature's). */
  deliver: DeliverFn
  backend: () => Promise<Backend>
  /** The settings as last read. */
  known: () => KioskSettings | null
  /** The kiosk's own engine: the sender starts once it runs. */
  engine: { getStatus(): EngineStatus; onChange(listener: (status: EngineStatus) => void): unknown }
  emit: (event: KioskEvent) => void
  log: (line: string) => void
}

export interface OutboxFeature extends Feature {
  /** The outbox, opened on first use. */
  opened(): Promise<Outbox>
  /** Starts the sender, if the outbox is open (remote mode was chosen, or the engine runs). */
  send(): void
  /** The e-mails whose enrollments still wait (none while the outbox is not open). */
  pending(): Promise<Set<string>>
}

/** Staff's view of the outbox: its state, and an item retried now or discarded. */
export function outboxHandlers(opened: () => Promise<Pick<Outbox, 'state' | 'retryNow' | 'discard'>>): Feature['handlers'] {
  return {
    getOutbox: async () => (await opened()).state(),
    retryOutboxItem: async (input) => (await opened()).retryNow(input.id),
    discardOutboxItem: async (input) => {
      await (await opened()).discard(input.id)
      return { ok: true }
    },
  }
}

/**
 * The offline outbox: enrollments waiting for the servers, sent when they answer. It needs its key
 * from the keychain, so it opens at start and, if the keychain was locked then, on demand.
 */
export function outboxFeature(deps: OutboxDeps): OutboxFeature {
  let outbox: Outbox | null = null
  // One opening at a time: two callers at once share it; a failed one (a locked keychain) is tried again next time.
  let opening: Promise<Outbox> | null = null
  async function open(): Promise<Outbox> {
    const fresh = await openOutbox({
      dir: deps.dataDir,
      key: await deps.credentials.outboxKey(),
      deliver: deps.deliver,
      probe: async (signal) => backendProbe(await deps.backend())(signal).catch(() => false),
      log: deps.log,
    })
    fresh.onChange((state) => deps.emit({ type: 'outbox', state }))
    // The sender waits for the kiosk's own engine: probing one that is still starting would only
    // report "offline" (it starts when the engine runs, below).
    if (usesRemoteServers(deps.known()?.mode ?? 'embedded') || deps.engine.getStatus().state === 'running') fresh.start()
    outbox = fresh
    return fresh
  }
  function opened(): Promise<Outbox> {
    if (outbox) return Promise.resolve(outbox)
    opening ??= open().finally(() => (opening = null))
    return opening
  }
  deps.engine.onChange((status) => status.state === 'running' && outbox?.start())
  return {
    opened,
    send: () => outbox?.start(),
    pending: async () => new Set(((await outbox?.list()) ?? []).filter((item) => item.state !== 'delivered').map((item) => item.userId.toLowerCase())),
    handlers: outboxHandlers(opened),
    async start() {
      await opened().catch((error: Error) => deps.log(`outbox not opened yet: ${error.message}`))
    },
    async stop() {
      await opening?.catch(() => {})
      await outbox?.close()
      outbox = null
    },
  }
}
