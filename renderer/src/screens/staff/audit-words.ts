import type { AuditAction, AuditEntryView, AuditVerdictView } from '@shared/audit'

/** Audit actions and outcomes in plain words. */
export const actionWords: Record<AuditAction, string> = {
  'sign-in': 'Sign-in',
  'sign-out': 'Sign-out',
  'account-change': 'Staff account change',
  enroll: 'Enrollment',
  'enroll-queued': 'Enrollment queued',
  'enroll-delivered': 'Queued enrollment delivered',
  verify: 'Verification',
  identify: 'Identification',
  'face-match': 'Face match',
  remove: 'Removal',
  'template-delete': 'Template deletion',
  'template-migrate': 'Templates rebuilt for a template type',
  'check-samples': 'Photo quality check',
  'settings-change': 'Settings change',
  'credentials-change': 'Credentials change',
  'tenant-change': 'Tenant change',
  'outbox-retry': 'Outbox retry',
  'outbox-discard': 'Outbox discard',
  'host-notice-retry': 'Host notice retry',
  'engine-admin': 'Engine administration',
  'audit-export': 'Audit export',
  'audit-prune': 'Audit pruning',
  'retention-purge': 'Enrollment retention',
  'replica-sync': 'Offline replica sync',
  'replica-wipe': 'Offline replica wiped',
  'check-in': 'Visit check-in',
  'check-out': 'Visit check-out',
  'host-change': 'Hosts directory change',
  'visits-export': 'Visit log export',
  'visits-purge': 'Visit retention',
  'invite-create': 'Invite created',
  'invite-revoke': 'Invite revoked',
  'invite-check': 'Invite code checked',
  'invite-alert-dismiss': 'Invitation alert dismissed',
  'watchlist-add': 'Put on the watchlist',
  'watchlist-remove': 'Taken off the watchlist',
  'watchlist-hit': 'Watchlisted person stopped',
  'watchlist-dismiss': 'Watchlist alert dismissed',
  'watchlist-screen': 'Watchlist screening',
  'kiosk-pair': 'Kiosk joined the site',
  'kiosk-remove': 'Kiosk removed from the site',
  'pairing-code': 'Pairing code made',
  'look-change': 'Look changed',
  'sync-push': 'Acts a kiosk made offline sent in',
}

export const outcomeWords: Record<AuditEntryView['outcome'], string> = {
  started: 'Started',
  ok: 'Done',
  refused: 'Refused',
  failed: 'Failed',
  queued: 'Queued',
}

/** Whom an entry concerned, as one line. */
export function subjectWords(subject: AuditEntryView['subject']): string {
  if (!subject) return '—'
  return [subject.userId, subject.personUuid, subject.outboxId && `outbox ${subject.outboxId.slice(0, 8)}`].filter(Boolean).join(' · ') || '—'
}

/** Entries an older kiosk wrote that verified in the previous format, as one sentence; null when there are none. */
export function previousFormatWords(previousFormat: AuditVerdictView['previousFormat']): string | null {
  const n = previousFormat.entries
  if (n === 0) return null
  return `${n} older ${n === 1 ? 'entry' : 'entries'} verified in the previous format.`
}

/** Which kiosk of a site an entry came from: its name on the site, else its id's start. */
export function kioskWords(entry: Pick<AuditEntryView, 'kioskId' | 'kioskName'>): string {
  if (entry.kioskName) return entry.kioskName
  return entry.kioskId ? `kiosk ${entry.kioskId.slice(0, 8)}` : '—'
}
