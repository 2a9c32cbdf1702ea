import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import { CONSENT } from '../../shared/consent'
import { KioskError } from '../../shared/errors'
import type { Role } from '../../shared/staff'
import type { enrollVisitorInput, EnrollVisitorResult } from '../../shared/workflows'
import type { Backend } from '../backend'
import type { LivenessGate } from '../liveness/gate'
import { isQueueable, templateContextFor, type DeliveryItem, type Outbox } from '../outbox'
import type { Replica } from '../replica/replica'
import { enrollVisitor, type EnrollmentRequest, type EnrollmentResult } from '../workflows/enroll-visitor'
import { checkIdentity, identityVerdict, type EnrollPolicy, type IdentityFindings } from '../workflows/identity-checks'
import type { AuditTrail } from './audit'
import type { Screening, WatchlistFeature } from './watchlist'
import type { Feature } from './feature'

export interface EnrollmentDeps {
  backend: () => Promise<Backend>
  templateType: () => Promise<string>
  liveness: LivenessGate
  /** The outbox, opened on demand (its key comes from the keychain, which may be locked). */
  outbox: () => Promise<Pick<Outbox, 'enqueue'>>
  /** Where an enrollment is kept locally too (remote mode, when the tenant opted in). */
  replica: Pick<Replica, 'record'>
  /** Told that the servers answered a delivery. */
  reachable: (answered: boolean) => void
  audit: Pick<AuditTrail, 'systemAct'>
  /** The watchlist's screening: a listed face or e-mail stops the enrollment (staff are alerted there). */
  watchlist: Pick<WatchlistFeature, 'screen'>
}

/**
 * One enrollment, from the visitor's capture to the servers (or the outbox) and the replica:
 * `enrollVisitor` answers the contract; `deliver` sends a queued one when the servers answer again.
 */
export function enrollment(deps: EnrollmentDeps): Feature & { deliver: (item: DeliveryItem) => Promise<EnrollmentResult> } {
  return {
    handlers: {
      async enrollVisitor(input, call) {
        // Liveness is judged first (before an enrollment is queued, too): a refusal stops it.
        const judged = await deps.liveness.judge('enroll', input, input.samples, call.actor.role)
        const result = await enrollOrQueue(deps, input, enrollPolicy(input, call.actor.role))
        // Staff decide about an existing record and send the same capture again: one more attempt.
        if (result.outcome === 'needs-decision') judged.release()
        if (result.outcome !== 'enrolled' && result.outcome !== 'queued') return result
        // Kept locally too (when the tenant opted in): confirmed by the servers, or queued for them.
        void deps.replica.record(input.userId, input.samples, result.outcome === 'enrolled' ? 'confirmed' : 'offline')
        return { ...result, liveness: judged.outcome }
      },
    },
    // A queued enrollment delivered later is an act of its own, audited like one.
    deliver: (item) =>
      deps.audit.systemAct(
        { action: 'enroll-delivered', subject: { userId: item.userId } },
        async () => {
          const result = await deliverQueued(await deps.backend(), deps.watchlist, item)
          deps.reachable(true)
          void deps.replica.record(item.userId, item.samples, 'confirmed')
          return result
        },
        (result) => ({ subject: { userId: item.userId, personUuid: result.person.uuid } }),
      ),
  }
}

/** Who may decide what: the consent must be the current text's, and only staff decide about existing records. */
function enrollPolicy(input: z.infer<typeof enrollVisitorInput>, role: Role): EnrollPolicy {
  if (input.consentVersion !== CONSENT.version) throw new KioskError('INVALID_INPUT', 'The consent text has changed: show it to the visitor again.')
  const staff = role !== 'visitor'
  if (!staff && (input.onExisting || input.acceptDuplicates)) throw new KioskError('FORBIDDEN', 'Only staff can decide about an existing record.')
  return { staff, onExisting: input.onExisting, acceptDuplicates: input.acceptDuplicates }
}

/** What anyone at the kiosk reads when the watchlist stops them: the same for a visitor and staff, and nothing of why. */
const SEE_FRONT_DESK = { outcome: 'needs-staff', reason: 'see-front-desk' } as const

/**
 * Screens everyone the look-up and the 1:N search found (the e-mail's holder and every matching
 * face), the e-mail typed, and (for a site kiosk whose site is away) the faces themselves.
 */
function screened(watchlist: EnrollmentDeps['watchlist'], findings: IdentityFindings | null, request: { userId: string; samples: readonly string[] }) {
  const personUuids = findings ? [...(findings.existing ? [findings.existing.person.uuid] : []), ...findings.duplicates.map((d) => d.personUuid)] : []
  return watchlist.screen({ personUuids, givenEmail: request.userId, place: 'enrollment', samples: request.samples })
}

/**
 * Before an enrollment is queued: the e-mail (and, on a site kiosk, the face) against the watchlist
 * the kiosk holds. A kiosk that cannot screen for want of the site (no copy yet) queues it as before:
 * delivery screens it against the site's list; any other failure stops it here.
 */
async function screenedOffline(watchlist: EnrollmentDeps['watchlist'], request: { userId: string; samples: readonly string[] }): Promise<Screening | 'unscreened'> {
  try {
    return await screened(watchlist, null, request)
  } catch (error) {
    if (isQueueable(error)) return 'unscreened'
    throw error
  }
}

/**
 * Enrolls at once when the servers answer, after the identity checks (look-up, 1:1 against the
 * e-mail's enrolled face, 1:N against everyone); when they cannot be reached, queues the capture
 * under the same template context, and the checks run at delivery (deliverQueued). A refusal (no
 * face, a licence) is the caller's to see, never queued.
 */
async function enrollOrQueue(deps: Pick<EnrollmentDeps, 'backend' | 'templateType' | 'outbox' | 'watchlist'>, input: { userId: string; samples: string[] }, policy: EnrollPolicy): Promise<EnrollVisitorResult> {
  const id = randomUUID()
  const templateType = await deps.templateType()
  try {
    const backend = await deps.backend()
    const findings = await checkIdentity(backend, input.userId, input.samples)
    if ((await screened(deps.watchlist, findings, input)) === 'watchlisted') return SEE_FRONT_DESK
    const verdict = identityVerdict(findings, policy)
    if (!verdict.proceed) return verdict.result
    const result = await enrollVisitor(backend, { ...input, templateType, templateContext: templateContextFor(id), replace: verdict.replace })
    return { outcome: 'enrolled', ...result }
  } catch (error) {
    if (!isQueueable(error)) throw error
    if ((await screenedOffline(deps.watchlist, input)) === 'watchlisted') return SEE_FRONT_DESK
    const reason = error instanceof Error ? error.message : 'The servers could not be reached.'
    const outbox = await deps.outbox().catch((cause: unknown) => {
      throw new KioskError('INTERNAL', `${reason} The enrollment could not be queued either: ${cause instanceof Error ? cause.message : 'outbox unavailable'}`)
    })
    const item = await outbox.enqueue({ userId: input.userId, templateType, samples: input.samples }, id)
    return { outcome: 'queued', outboxId: item.id, reason }
  }
}

/**
 * A queued enrollment, delivered: the identity checks run now, under the visitor's rule (nobody
 * decided anything while offline). One that needs staff is refused, so the outbox parks it for them.
 */
async function deliverQueued(backend: Backend, watchlist: EnrollmentDeps['watchlist'], request: EnrollmentRequest): Promise<EnrollmentResult> {
  const findings = await checkIdentity(backend, request.userId, request.samples)
  if ((await screened(watchlist, findings, request)) === 'watchlisted') {
    throw new KioskError('REJECTED', 'Needs staff: this person is on the watchlist (see the alert). Enroll the visitor in person, or discard this item.')
  }
  const verdict = identityVerdict(findings, { staff: false })
  if (!verdict.proceed) {
    const why = verdict.result.outcome === 'needs-staff' && verdict.result.reason === 'duplicate-face' ? 'the face matches another enrolled person' : 'this e-mail is already enrolled with another face'
    throw new KioskError('REJECTED', `Needs staff: ${why}. Enroll the visitor in person, or discard this item.`)
  }
  return enrollVisitor(backend, request)
}
