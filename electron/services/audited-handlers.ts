import { randomUUID } from 'node:crypto'
import type { AuditAction } from '../shared/audit'
import { describeLogo } from './branding/branding'
import type { MethodName } from '../shared/contract'
import { KioskError } from '../shared/errors'
import type { LivenessOutcome } from '../shared/liveness'
import type { VisitorCheckResult } from '../shared/visits'
import type { OfflineCheck, ReplicaSyncResult } from '../shared/workflows'
import type { AuditEntryInput, AuditLog } from './audit'
import { ApiError } from './clients/api-error'
import type { Call, Handlers } from './dispatch'

/** Who is acting: a visitor (nobody signed in), or a staff account with its role. */
export interface Actor {
  role: AuditEntryInput['role']
  account: string | null
}

type Subject = NonNullable<AuditEntryInput['subject']>
type Input<M extends MethodName> = Parameters<Handlers[M]>[0]
type Output<M extends MethodName> = Awaited<ReturnType<Handlers[M]>>
type Outcome = Partial<Pick<AuditEntryInput, 'outcome' | 'subject' | 'score' | 'detail' | 'role' | 'account'>>

/** What one method's audit entries say: the action, whom it concerns, and what its result adds. */
interface AuditSpec<M extends MethodName> {
  action: AuditAction
  subject?: (input: Input<M>) => Subject | null
  detail?: (input: Input<M>) => string | null
  /** The account the act concerns when it is not the caller's own (a sign-in names who tried). */
  account?: (input: Input<M>) => string
  result?: (output: Output<M>, input: Input<M>, actor: Actor) => Outcome
}
type AuditSpecs = { [M in MethodName]?: AuditSpec<M> }

/** What a result says about liveness, for its entry's detail: nothing when the tenant requires none. */
export function livenessWords(outcome: LivenessOutcome | null | undefined, actor: Actor): string | null {
  if (!outcome) return null
  switch (outcome.status) {
    case 'passed':
      return 'liveness passed'
    case 'overridden':
      return `liveness overridden by ${actor.account ?? actor.role}: ${outcome.note ?? 'no reason given'}`
    case 'not-checked':
      return `liveness not checked${outcome.note ? ` (${outcome.note})` : ''}`
    case 'failed':
      return `liveness failed${outcome.note ? `: ${outcome.note}` : ''}`
  }
}
const withLiveness = (detail: string, outcome: LivenessOutcome | null | undefined, actor: Actor) =>
  [detail, livenessWords(outcome, actor)].filter(Boolean).join('; ').slice(0, 256)

/** A decision made on this device because the servers could not be reached: said first, so it is never cut. */
/** A replica sync in an audit entry: what it checked, removed, and held for staff (with why). */
export function syncWords(o: ReplicaSyncResult): string {
  const held = o.held > 0 ? `; ${o.held} gone from the server held for staff: more than a quarter of the replica at once` : ''
  return `${o.checked} checked, ${o.removed} removed (gone from the server)${held}`
}

export function offlineWords(offline: OfflineCheck | undefined): string | null {
  if (!offline) return null
  return `offline: checked on this device${offline.recordAt === null ? '' : ` (local record of ${new Date(offline.recordAt).toISOString()})`}`
}
const decided = (offline: OfflineCheck | undefined, detail: string) => [offlineWords(offline), detail].filter(Boolean).join('; ')

const tenantChange = (detail: (input: never) => string) => ({ action: 'tenant-change' as const, detail: detail as (input: unknown) => string })

/** The contract methods that change something or decide about a person: each leaves entries. */
export const auditSpecs: AuditSpecs = {
  signIn: { action: 'sign-in', account: (i) => i.name, result: (o) => ({ role: o.role }) },
  signOut: { action: 'sign-out' },
  createFirstAdmin: { action: 'account-change', account: (i) => i.name, detail: () => 'first administrator created', result: (o) => ({ role: o.role }) },
  createAccount: { action: 'account-change', detail: (i) => `${i.role} ${i.name} created` },
  setAccountDisabled: { action: 'account-change', detail: (i) => `${i.name} ${i.disabled ? 'disabled' : 'enabled'}` },
  enrollVisitor: {
    action: 'enroll',
    subject: (i) => ({ userId: i.userId }),
    // Consent is a record: the text's version (the entry's time and account say when and who collected it).
    detail: (i) => [`consent ${i.consentVersion}`, i.onExisting && `existing record: ${i.onExisting}`, i.acceptDuplicates && 'duplicate face accepted by staff'].filter(Boolean).join('; '),
    result: (o, i, actor) => {
      switch (o.outcome) {
        case 'queued':
          // Why it was queued (the servers' failure, as staff read it), last: a long reason is cut, never the liveness words.
          return { outcome: 'queued', subject: { userId: i.userId, outboxId: o.outboxId }, detail: `${withLiveness(`consent ${i.consentVersion}`, o.liveness, actor)}; queued: ${o.reason}`.slice(0, 256) }
        case 'enrolled':
          return {
            subject: { userId: i.userId, personUuid: o.person.uuid },
            detail: withLiveness(`consent ${i.consentVersion}; ${o.created ? 'created' : 'existing person'}; quality ${o.quality ?? 'not given'}; enrollment ${o.enrollmentStatus ?? 'not given'}`, o.liveness, actor),
          }
        case 'needs-staff':
          return { outcome: 'refused', detail: `needs staff: ${o.reason}` }
        case 'needs-decision':
          return {
            outcome: 'refused',
            detail: `needs a decision: ${[o.existing && 'e-mail already enrolled', o.duplicates.length > 0 && `face matches ${o.duplicates.map((d) => d.personUuid).join(', ')}`].filter(Boolean).join('; ')}`.slice(0, 256),
          }
      }
    },
  },
  verifyVisitor: {
    action: 'verify',
    subject: (i) => ({ ...(i.userId ? { userId: i.userId } : {}), ...(i.personUuid ? { personUuid: i.personUuid } : {}) }),
    result: (o, i, actor) => ({
      subject: o.person ? { userId: o.person.userId, personUuid: o.person.uuid } : { userId: i.userId ?? '' },
      score: o.score,
      detail: withLiveness(decided(o.offline, o.decision), o.liveness, actor),
    }),
  },
  identifyVisitor: {
    action: 'identify',
    // The liveness words first: a long candidate list is cut at the end, never the liveness outcome.
    result: (o, _i, actor) => ({
      score: o.candidates[0]?.score ?? null,
      detail: [offlineWords(o.offline), livenessWords(o.liveness, actor), `${o.decision}: ${o.candidates.map((c) => c.personUuid).join(', ') || 'none'}`].filter(Boolean).join('; ').slice(0, 256),
    }),
  },
  faceMatch: { action: 'face-match', result: (o, _i, actor) => ({ score: o.score, detail: withLiveness(decided(o.offline, o.pass ? 'pass' : 'no pass'), o.liveness, actor) }) },
  syncReplica: { action: 'replica-sync', result: (o) => ({ detail: syncWords(o) }) },
  confirmReplicaRemovals: { action: 'replica-sync', result: (o) => ({ detail: `removals confirmed by staff: ${syncWords(o)}` }) },
  wipeReplica: { action: 'replica-wipe' },
  removeVisitor: { action: 'remove', subject: (i) => ({ userId: i.userId }), result: (o) => ({ detail: o.outcome }) },
  deleteTemplates: {
    action: 'template-delete',
    subject: (i) => ({ personUuid: i.personUuid }),
    detail: (i) => [i.templateType ?? 'all types', i.templateContext].filter(Boolean).join(' / '),
  },
  checkSamples: { action: 'check-samples', result: (o) => ({ score: o.quality }) },
  saveSettings: { action: 'settings-change', detail: (i) => Object.keys(i).sort().join(', ') },
  setLogo: { action: 'settings-change', detail: (i) => (i.image === null ? 'logo removed' : 'logo set'), result: (o) => ({ detail: o.logo ? `logo set: ${describeLogo(o.logo)}` : 'logo removed' }) },
  setCredentials: { action: 'credentials-change', detail: (i) => `stored: ${Object.keys(i).sort().join(', ')}` },
  clearCredentials: { action: 'credentials-change', detail: (i) => `cleared: ${(i.names ?? ['all']).join(', ')}` },
  updateTenant: tenantChange(() => 'tenant updated'),
  associateApp: tenantChange((i: { appCode: string }) => `app ${i.appCode} associated`),
  disassociateApp: tenantChange((i: { appCode: string }) => `app ${i.appCode} disassociated`),
  associateAlgorithm: tenantChange((i: { algCode: string }) => `algorithm ${i.algCode} associated`),
  disassociateAlgorithm: tenantChange((i: { algCode: string }) => `algorithm ${i.algCode} disassociated`),
  associateLiveness: tenantChange((i: { algCode: string; livenessCode: string }) => `liveness ${i.livenessCode} on ${i.algCode} associated`),
  disassociateLiveness: tenantChange((i: { algCode: string; livenessCode: string }) => `liveness ${i.livenessCode} on ${i.algCode} disassociated`),
  retryOutboxItem: { action: 'outbox-retry', subject: (i) => ({ outboxId: i.id }) },
  discardOutboxItem: { action: 'outbox-discard', subject: (i) => ({ outboxId: i.id }) },
  retryHostNotice: { action: 'host-notice-retry', detail: (i) => `host notice ${i.id}` },
  saveHostNoticeSettings: { action: 'settings-change', detail: (i) => (i.smtp ? `host notifications: SMTP ${i.smtp.host}:${i.smtp.port} (${i.smtp.security})` : 'host notifications: SMTP removed') },
  setHostNoticeSecrets: {
    action: 'credentials-change',
    detail: (i) =>
      (['smtpPassword', 'webhookSecret'] as const)
        .filter((name) => i[name] !== undefined)
        .map((name) => `${name} ${i[name] === null ? 'cleared' : 'stored'}`)
        .join(', ') || 'nothing changed',
  },
  rebuildCaches: { action: 'engine-admin', detail: (i) => `rebuild caches: ${i.pluginName ?? 'all'}` },
  getEngineLogs: { action: 'engine-admin', detail: () => 'logs downloaded' },
  migrateTemplates: {
    action: 'template-migrate',
    detail: (i) => `to ${i.templateType}`,
    result: (o) => ({ detail: `to ${o.templateType}: ${o.rebuilt} rebuilt from kept face crops, ${o.missing} must enroll again` }),
  },
  exportAuditLog: { action: 'audit-export', detail: (i) => i.format },
  checkIn: { action: 'check-in', subject: (i) => ({ personUuid: i.personUuid }), detail: (i) => (i.inviteToken ? 'after enrolling, with an invitation' : 'after enrolling'), result: (o) => checkWords(o) },
  checkInByFace: { action: 'check-in', detail: () => 'by face', result: (o) => checkWords(o) },
  checkOutByFace: { action: 'check-out', detail: () => 'by face', result: (o) => checkWords(o) },
  endVisit: { action: 'check-out', detail: (i) => `visit ${i.id} ended by staff`, result: (o) => ({ subject: { userId: o.email, personUuid: o.personUuid } }) },
  addHost: { action: 'host-change', detail: (i) => `host ${i.name} added`, result: (o) => ({ detail: `host ${o.name} added (${o.id})` }) },
  updateHost: { action: 'host-change', detail: (i) => `host ${i.id} changed` },
  removeHost: { action: 'host-change', detail: (i) => `host ${i.id} removed` },
  exportVisitsCsv: { action: 'visits-export', result: (o) => ({ detail: `${o.visits} visits` }) },
  // Never the token: it is the code itself.
  createInvite: {
    action: 'invite-create',
    subject: (i) => ({ userId: i.email }),
    detail: (i) => `for ${i.date}; host ${i.hostId ?? 'none'}`,
    result: (o) => ({ detail: `invite ${o.invite.id} for ${o.invite.date}; host ${o.invite.hostId ?? 'none'}` }),
  },
  revokeInvite: { action: 'invite-revoke', detail: (i) => `invite ${i.id}` },
  // A visitor's code: a refused one (forged, used, revoked, expired) is worth a look by staff.
  checkInvite: { action: 'invite-check', result: (o) => (o.status === 'valid' ? { subject: { userId: o.email } } : { outcome: 'refused', detail: `code refused: ${o.reason}` }) },
  addToWatchlist: {
    action: 'watchlist-add',
    subject: (i) => (i.personUuid ? { personUuid: i.personUuid } : { userId: i.email! }),
    detail: (i) => `reason: ${i.reason}`.slice(0, 256),
    result: (o, i) => ({ subject: { personUuid: o.personUuid, userId: o.email }, detail: `reason: ${i.reason}`.slice(0, 256) }),
  },
  removeFromWatchlist: { action: 'watchlist-remove', subject: (i) => ({ personUuid: i.personUuid }) },
  dismissWatchlistAlert: { action: 'watchlist-dismiss', detail: (i) => `alert ${i.id}` },
  dismissInviteAlert: { action: 'invite-alert-dismiss', detail: (i) => `alert ${i.id}` },
  // A site. Never a pairing code: until it is used or expires, it lets a kiosk in.
  joinSite: {
    action: 'settings-change',
    detail: (i) => `join the site ${i.url}${i.name ? ` as ${i.name}` : ''}`.slice(0, 256),
    result: (o) => ({ detail: `joined the site ${o.url} as ${o.name} (kiosk ${o.kioskId})`.slice(0, 256) }),
  },
  createPairingCode: { action: 'credentials-change', detail: () => 'pairing code made', result: (o) => ({ detail: `pairing code made, valid until ${o.expiresAt}` }) },
  removeKiosk: { action: 'credentials-change', detail: (i) => `kiosk ${i.id} removed from the site` },
}

/** A check-in or check-out in an entry: the visit, or why a visitor was sent to the front desk. */
function checkWords(o: VisitorCheckResult): Outcome {
  const subject = o.personUuid ? { personUuid: o.personUuid } : undefined
  switch (o.outcome) {
    case 'checked-in':
      return { subject, detail: `visit ${o.visitId}${o.alreadyOnSite ? ' (already on site)' : ''}` }
    case 'checked-out':
      return { subject, detail: `visit ${o.visitId}` }
    case 'refused':
      return { outcome: 'refused', subject, detail: `${o.reason}: ${o.why ?? o.invite ?? 'no reason'}` }
  }
}

/** A refusal is the servers' or the kiosk's "no"; a failure is "could not" (worth trying again). */
export function outcomeOf(error: unknown): { outcome: 'refused' | 'failed'; detail: string } {
  if (error instanceof ApiError && error.retryable) return { outcome: 'failed', detail: error.code }
  // A liveness refusal keeps its words (which check, what was not seen): codes and words, no biometrics.
  if (error instanceof KioskError && (error.code === 'LIVENESS_REQUIRED' || error.code === 'LIVENESS_FAILED')) {
    return { outcome: 'refused', detail: `liveness failed: ${error.message} [${error.code}]`.slice(0, 256) }
  }
  if (error instanceof KioskError) return { outcome: error.code === 'INTERNAL' ? 'failed' : 'refused', detail: error.code }
  return { outcome: 'failed', detail: 'INTERNAL' }
}

/**
 * Writes an entry before an act and one with its outcome after. The first entry must be written
 * for the act to happen; a crash mid-act leaves a 'started' entry without its outcome.
 */
export async function audited<T>(
  audit: () => AuditLog,
  log: (line: string) => void,
  actor: Actor,
  entry: { action: AuditAction; subject?: Subject | null; detail?: string | null; account?: string | null },
  act: () => Promise<T>,
  result: (value: T) => Outcome = () => ({}),
): Promise<T> {
  const correlationId = randomUUID()
  const base = { ...actor, ...entry, account: entry.account ?? actor.account, correlationId }
  try {
    audit().append({ ...base, outcome: 'started' })
  } catch {
    throw new KioskError('AUDIT_UNAVAILABLE', 'The kiosk cannot record this action right now, so it was not done. Please ask staff.')
  }
  let value: T
  try {
    value = await act()
  } catch (error) {
    appendAfter(audit, log, { ...base, ...outcomeOf(error) })
    throw error
  }
  appendAfter(audit, log, { ...base, outcome: 'ok', ...result(value) })
  return value
}

/** The outcome entry. The act is done and cannot be undone; its 'started' entry stands as the record. */
function appendAfter(audit: () => AuditLog, log: (line: string) => void, entry: AuditEntryInput): void {
  try {
    audit().append(entry)
  } catch (error) {
    log(`audit: the outcome of ${entry.action} (${entry.correlationId}) was not recorded: ${error instanceof Error ? error.message : 'unknown error'}`)
  }
}

/** The handler table with every audited method wrapped by `audited`, as the calling session's actor. */
export function auditedHandlers(handlers: Handlers, audit: () => AuditLog, log: (line: string) => void): Handlers {
  const wrapped = { ...handlers } as Record<MethodName, (input: unknown, call: Call) => Promise<unknown>>
  for (const [method, spec] of Object.entries(auditSpecs) as Array<[MethodName, AuditSpec<MethodName>]>) {
    const handler = handlers[method] as (input: unknown, call: Call) => Promise<unknown>
    wrapped[method] = (input, call) =>
      audited(
        audit,
        log,
        call.actor,
        {
          action: spec.action,
          subject: spec.subject?.(input as never) ?? null,
          detail: spec.detail?.(input as never) ?? null,
          account: spec.account?.(input as never) ?? null,
        },
        () => handler(input, call),
        (output) => spec.result?.(output as never, input as never, call.actor) ?? {},
      )
  }
  return wrapped as Handlers
}
