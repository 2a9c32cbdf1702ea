import type { VisitorCheckResult } from '@shared/visits'

type CheckedIn = Extract<VisitorCheckResult, { outcome: 'checked-in' }>

/**
 * What a checked-in visitor may read of their host: 'told' only when this check-in queued a notice
 * on a channel that is set up; 'later' when the check-in was kept at this kiosk while its site was
 * away (the site, and so the host, hear of it when it is back: never "has been told"); nothing
 * without a host, or when they were already on site (no new arrival to tell of).
 */
export function hostLine(result: CheckedIn): 'told' | 'later' | null {
  if (!result.hostName) return null
  if (result.offline) return result.alreadyOnSite ? null : 'later'
  return result.hostNotified ? 'told' : null
}
