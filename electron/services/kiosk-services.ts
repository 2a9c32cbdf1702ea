import { mkdirSync } from 'node:fs'
import { singleKeyring } from '../records/frontdesk/invite-keyring'
import { openLocalFrontDesk } from '../records/frontdesk/local'
import { readKioskRecords, removeBroughtRecords } from '../records/frontdesk/merge-export'
import type { KioskEvent } from '../shared/events'
import type { SiteEvent } from '../shared/frontdesk-api'
import { openAuditLog } from './audit'
import { auditedHandlers } from './audited-handlers'
import { BackendResolver } from './backend-resolver'
import { brandingService } from './branding/branding'
import { createLogoStore } from './branding/logo-store'
import { siteLook } from './branding/site-look'
import { createDispatch, type Dispatch } from './dispatch'
import type { LaunchEngine } from './engine-launch'
import { auditTrail } from './features/audit'
import { kioskEngine } from './features/kiosk-engine'
import { enrollment } from './features/enrollment'
import { faceMatch } from './features/face-match'
import { frontDesks } from './front-desk/desks'
import { ownDesk } from './front-desk/own-desk'
import { hostNotices } from './features/host-notices'
import { noticeSecrets } from './host-notices/secrets'
import { invitesFeature } from './features/invites'
import { combine, handlerTable } from './features/feature'
import { livenessFeature } from './features/liveness'
import { outboxFeature } from './features/outbox'
import { persons } from './features/persons'
import { reachability } from './features/reachability'
import { replicaFeature } from './features/replica'
import { retention } from './features/retention'
import { savedSettings, settingsFeature } from './features/settings'
import { siteFeature } from './features/site'
import { siteSyncFeature } from './features/site-sync'
import { staffFeature } from './features/staff'
import { tenantAdmin } from './features/tenant-admin'
import { verification } from './features/verification'
import { visitsFeature } from './features/visits'
import { watchlistFeature } from './features/watchlist'
import { ownVisitRecords, sharedLocalFrontDesk } from './visits/own-records'
import { kioskId } from './kiosk-id'
import { ownEngine } from './own-engine'
import { eventFor, roleViews } from './role-views'
import { createCredentialStore } from './secrets/credentials'
import { createKeychain, keychainServiceFor, type Keychain } from './secrets/keychain'
import { createSettingsStore } from './settings-store'
import { siteAuditFor } from './site/site-audit'
import { siteDesk } from './site/site-desk'
import { siteEvents } from './site/site-events'
import { dispatchWhileAway } from './site/away-sessions'
import { matchListedFaces } from './site/listed-face-match'
import { offlineDesk, siteKioskId } from './site/offline-desk'
import { openSiteCopy } from './site/site-copy'
import { siteSync } from './site/site-sync'
import { kioskLog } from './kiosk-log'
import { lastFault } from './last-fault'
import { siteHealth } from './features/site-health'
import { noticeJobs } from '../records/frontdesk/notices/notice-jobs'

export interface KioskServicesOptions {
  shell: 'electron' | 'web'
  version: string
  dataDir: string
  /** Starts one embedded engine process (a child process, or Electron's utilityProcess). */
  launchEngine: LaunchEngine
  /** The OS keychain; tests pass one under a throwaway service name. */
  keychain?: Keychain
  /** The clock visitor retention is measured by (tests move it forward). */
  now?: () => number
  log?: (line: string) => void
}

export interface KioskServices {
  /** One call from a transport, with its caller's session key (a window or tab; null: none). */
  dispatch: Dispatch
  /** Pushed events for the window or tab under `key`, shaped for its session's role. */
  onEvent(key: string | null, listener: (event: KioskEvent) => void): () => void
  /** The window or tab under `key` went away or reloaded: its staff session ends (audited). */
  endSession(key: string, reason: string): void
  /**
   * An administrator's sign-in outside any window (Electron kiosk mode's exit prompt): the same
   * accounts, back-off and audit as signIn. Resolves when it is a valid, active administrator.
   */
  verifyAdmin(name: string, secret: string): Promise<void>
  /** Applies the visitor retention and the offline replica's now (they also run when the engine starts and every hour). */
  purgeExpired(): Promise<void>
  start(): Promise<void>
  stop(): Promise<void>
}

/**
 * The composition root of the kiosk services: the features (electron/services/features), each given
 * only what it needs, combined into the contract's handler table with the role checks, audit and
 * result shaping around it. Electron's main process and the web host both build exactly this.
 */
export function createKioskServices(options: KioskServicesOptions): KioskServices {
  const { dataDir, shell, version } = options
  const log = options.log ?? kioskLog()
  const now = options.now ?? Date.now
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const saved = savedSettings(createSettingsStore({ dataDir, log }))
  const settings = saved.current
  const keychain = options.keychain ?? createKeychain(keychainServiceFor(dataDir))
  const credentials = createCredentialStore(keychain)
  const listeners = new Set<(event: KioskEvent) => void>()
  const emit = (event: KioskEvent) => listeners.forEach((listener) => listener(event))
  const faults = lastFault()

  const own = ownEngine({ dataDir, credentials, launchEngine: options.launchEngine, settings, log })
  const resolver = new BackendResolver(credentials, own.target)
  const backend = async () => resolver.backend(await settings())
  const site = async () => resolver.site(await settings())
  // On a site, its alerts reach this kiosk's staff by the site's events, and a new look every screen.
  const onSiteEvent = (event: SiteEvent) => {
    if (event.type === 'watchlist-alert' || event.type === 'watchlist-alert-dismissed' || event.type === 'invite-alert' || event.type === 'invite-alert-dismissed') emit(event)
    else if (event.type === 'records-changed') sync.recordsChanged(event.seq)
    else if (event.type === 'look') {
      look.changed()
      branding.siteLookChanged().catch((error: unknown) => log(`kiosk: branding: the site's new look was not shown: ${error instanceof Error ? error.message : 'unknown error'}`))
    }
  }
  // What the site said while the stream was away is not replayed: the look and the records are read again.
  const onConnected = () => {
    onSiteEvent({ type: 'look' })
    sync.request()
    // Connected (again): the site hears how this kiosk is at once, not up to 30 s later.
    void health.reportNow()
  }
  const events = siteEvents({ settings, tokens: async () => (await site()).tokens, onEvent: onSiteEvent, onConnected, log })
  // New servers or credentials: the clients go, and the event stream and the copy follow (or stop, off a site).
  const resetServers = async () => {
    await resolver.reset()
    events.refresh()
    sync.request()
  }

  // The front desk (staff, the watchlist, visits, hosts, invites): the kiosk's own frontdesk.db, or its site's.
  // On its own, invitation codes are signed with the keychain's one key (codes made before the
  // front desk kept the invites stay good).
  const ownFile = sharedLocalFrontDesk(
    () =>
      openLocalFrontDesk({
        dataDir,
        now,
        inviteKeys: singleKeyring(() => credentials.inviteKey()),
        // The check-in says the host will hear only on a channel set up (its secrets in the keychain).
        noticeSecrets: noticeSecrets(keychain),
        onImported: (i) =>
          log(
            `front desk: took in ${i.accounts} staff accounts, ${i.entries} watchlist entries, ${i.alerts} alerts, ${i.hosts} hosts, ${i.visits} visits, ${i.invites} invites and ${i.notices} host notices from accounts.db, watchlist.db, visits.db, invites.db and host-notices.db`,
          ),
      }),
  )
  const ownFrontDesk = ownDesk(ownFile.open, () => kioskId(dataDir))
  const ownVisits = ownVisitRecords(ownFrontDesk, ownFile.frontDesk)
  /**
   * The servers' id of a visitor a site's act names by e-mail alone (see siteSync): the person
   * server's, else 'waiting' while their enrollment is in the outbox. A failure fails the sync run.
   */
  async function personId(email: string): Promise<string | 'waiting' | null> {
    const found = await (await backend()).persons.findPersonByUserId(email)
    if (found) return found.uuid
    return (await outbox.pending()).has(email.toLowerCase()) ? 'waiting' : null
  }
  // On a site: its copy (site-copy.db, sealed with the outbox's key) keeps screening and the
  // evacuation list working while the site is away, and its acts made meanwhile wait there for the site.
  const sync = siteSync({
    openCopy: async () => openSiteCopy({ dataDir, key: await credentials.outboxKey(), log }),
    siteId: async () => {
      const current = await desk()
      return current.onSite ? current.id : null
    },
    connection: site,
    personId,
    log,
    onState: (state) => emit({ type: 'site-sync', state }),
  })
  const siteFrontDesk = (id: string) =>
    offlineDesk(siteDesk(id, site), {
      sync,
      selfId: async () => siteKioskId((await credentials.serverCredentials()).clientId),
      kioskName: async () => (await settings()).kioskName,
      alerted: (alertId) => emit({ type: 'watchlist-alert', alertId }),
      // Staff sign in from the copy while the site is away: operators only this long after its last pull.
      offlineSignInMs: async () => (await settings()).offlineSignInHours * 3_600_000,
      // The listed faces are compared by the kiosk's own engine (started on demand), at the kiosk's identify threshold.
      matchListedFaces: async (samples, listed) => matchListedFaces((await own.backend()).bio, (await settings()).identifyThresholdOverride, samples, listed),
      log,
    })
  const desk = frontDesks({ settings, own: ownFrontDesk.desk, site: siteFrontDesk })
  // The organisation's look (and the visitor retention) are the site's on a site; the retention applies the site's days or none.
  const look = siteLook({ settings, desk, log })
  const retentionSettings = () => look.settings({ strict: true })

  // Created in this order: the engine's listeners (status, retention, outbox sender) run in it.
  const engine = kioskEngine({ shell, version, own, known: saved.known, backend, resetServers, emit })
  const liveness = livenessFeature({ engineUrl: own.url, credentials, settings, backend, log })
  // On a site, staff read the site's trail (with their own session); the kiosk's own stays readable beside it.
  const audit = auditTrail({ open: () => openAuditLog({ dir: dataDir, kioskId: kioskId(dataDir) }), settings, log, site: siteAuditFor({ desk, held: (key) => staff.sessions.held(key), connection: site }) })
  const reach = reachability({ backend, onBack: () => replica.syncAfterOffline() })
  const replica = replicaFeature({ own, settings, backend, pending: () => outbox.pending(), reachable: reach.reachable, audit, now, log })
  // On a site its staff's calls go to the site (staff is made below; only called once a request comes).
  // The kiosk's own host notices are in its frontdesk.db (its check-ins queue them there); on a site, staff's calls go to the site's.
  const notices = hostNotices({ database: ownFile.database, keychain, now, log, site: { desk, staffDesk: (call) => staff.staffDesk(call) } })
  const staff = staffFeature({
    desk,
    kiosk: async () => {
      const { idleTimeoutSeconds, templateType } = await settings()
      return { idleTimeoutSeconds, templateType }
    },
    idleMs: () => (saved.known()?.idleTimeoutSeconds ?? 90) * 1000,
    audit,
    log,
  })
  const watchlist = watchlistFeature({
    desk,
    staffDesk: staff.staffDesk,
    // The kiosk's own alerts; a site keeps its own.
    pruneDismissed: async (days) => ((await settings()).mode === 'site' ? 0 : ownFrontDesk.pruneDismissed(days)),
    backend,
    audit,
    emit,
    log,
  })
  const invites = invitesFeature({ desk, staffDesk: staff.staffDesk, own: ownVisits, emit, now, log })
  const visits = visitsFeature({
    desk,
    staffDesk: staff.staffDesk,
    own: ownVisits,
    backend,
    liveness: liveness.gate,
    decisions: replica.decisions,
    retentionDays: async () =>
      (await retentionSettings().catch((error: unknown) => {
        log(`visits: retention not applied this time: ${error instanceof Error ? error.message : 'unknown error'}`)
        return { visitorRetentionDays: null }
      })).visitorRetentionDays,
    audit,
    now,
    log,
    hooks: { noticesQueued: notices.wake, screenPerson: (person) => watchlist.screenPerson(person) },
  })
  // A visitor removed (by staff or the retention) takes their visits and invites with them (on a
  // site, staff's removal does it by their session: visits.withVisitorRemoval).
  const forgetting = {
    forget: async (userId: string) => {
      await replica.replica.forget(userId)
      await visits.forget({ userId })
    },
    purge: () => replica.replica.purge(),
  }
  const purge = retention({ settings: retentionSettings, backend, replica: forgetting, engine: own.supervisor, audit, now, log })
  const purgeExpired = async () => {
    await purge.purgeExpired()
    await visits.purgeExpired()
  }
  const enroll = enrollment({
    backend,
    templateType: async () => (await settings()).templateType,
    liveness: liveness.gate,
    outbox: () => outbox.opened(),
    replica: replica.replica,
    reachable: reach.reachable,
    audit,
    watchlist,
  })
  const outbox = outboxFeature({ dataDir, credentials, deliver: enroll.deliver, backend, known: saved.known, engine: own.supervisor, emit, log })
  const branding = brandingService({ settings, site: look, logo: createLogoStore({ dataDir, log }), emit: (shown) => emit({ type: 'branding', branding: shown }), log })
  const settingsOwner = settingsFeature({ saved, credentials, backend, resetServers, own, replica: replica.replica, sendOutbox: outbox.send, branding, site: look, staffDesk: staff.staffDesk, purgeExpired, log })
  const onSite = siteFeature({
    settings,
    desk,
    staffDesk: staff.staffDesk,
    credentials,
    saveSettings: settingsOwner.save,
    events,
    // What an administrator may bring to a site from this kiosk on its own (its invitation key with its invites).
    ownRecords: {
      read: async () => readKioskRecords(await ownFile.database(), () => credentials.inviteKey()),
      remove: async (records) => removeBroughtRecords(await ownFile.database(), records),
    },
    log,
  })

  // On a site: how this kiosk is, to the site every 30 s (its Kiosks screen and metrics); counts and states only.
  const health = siteHealth({
    connection: async () => ((await desk()).onSite ? site() : null),
    gather: async () => {
      const waiting = (await (await outbox.opened()).state()).counts
      const notices = await noticeJobs(await ownFile.database()).counts()
      const copyAsOf = (await sync.state())?.copyAsOf ?? null
      return {
        version,
        outbox: { waiting: waiting.queued + waiting.inFlight, failed: waiting.needsAttention },
        hostNoticesWaiting: notices.queued + notices.inFlight,
        replicaAgeSeconds: copyAsOf === null ? null : Math.max(0, Math.round((now() - copyAsOf) / 1000)),
        lastErrorCode: faults.last(),
      }
    },
    log,
  })
  // Started in this order, stopped in reverse: the audit trail before the outbox that audits its
  // deliveries, the outbox open (its key read) before the settings start the engine; on stop the
  // outbox and the audit trail close, the replica's writes finish, then the engine and its judge stop.
  // The site's event stream stops before the clients close; the own front desk closes after its users.
  const kiosk = combine(
    liveness,
    engine,
    replica,
    audit,
    {
      handlers: {},
      stop: async () => {
        await ownFrontDesk.close()
        await ownFile.close()
      },
    },
    watchlist,
    outbox,
    notices,
    settingsOwner,
    onSite,
    // After the event stream it feeds (stopped before it), and before the engine and clients.
    siteSyncFeature(sync),
    // Stopped before the copy and the clients its reports read and use.
    health,
    staff,
    purge,
    reach,
    enroll,
    verification({ liveness: liveness.gate, decisions: replica.decisions }),
    faceMatch({ liveness: liveness.gate, decisions: replica.decisions }),
    persons({ backend, replica: forgetting }),
    tenantAdmin({ backend }),
    visits,
    invites,
  )
  const handlers = roleViews(auditedHandlers(visits.withVisitorRemoval(visits.rememberEnrollments(handlerTable(kiosk.handlers))), audit.log, log))

  return {
    // A held staff session may still read the evacuation list (and this kiosk's alerts) while the site is away.
    dispatch: faults.watch(dispatchWhileAway((resolve) => createDispatch(handlers, resolve, log), staff.resolveActor, staff.sessions)),
    onEvent(key, listener) {
      const shaped = (event: KioskEvent) => {
        const seen = eventFor(staff.sessions.actor(key).role, event)
        if (seen) listener(seen)
      }
      listeners.add(shaped)
      return () => listeners.delete(shaped)
    },
    verifyAdmin: staff.verifyAdmin,
    endSession: staff.endSession,
    purgeExpired,
    start: async () => kiosk.start(),
    stop: async () => kiosk.stop(),
  }
}
