import type { MethodName } from '../../shared/contract'
import type { Dispatch, ResolveActor } from '../dispatch'
import type { Sessions } from '../staff/sessions'
import { siteAway } from './site-away'

/**
 * What a staff session already held here may still do while its site is away (the site cannot say
 * whether the session holds): read the evacuation list, which must print during a fire alarm, and
 * the alerts this kiosk raised meanwhile, both from the kiosk's copy (offline-desk.ts), and the
 * invitation alerts (none while away: only the site finds them); and keep its screen (the session's
 * own view), so staff stay where the list is. Nothing that acts.
 */
export const READABLE_WHILE_AWAY: ReadonlySet<MethodName> = new Set<MethodName>(['listOnSite', 'getWatchlistAlerts', 'getInviteAlerts', 'getSession', 'keepSession'])

/** The session's role as the site last gave it, when the site cannot be asked now. */
export function heldWhileAway(resolve: ResolveActor, sessions: Pick<Sessions, 'actor'>): ResolveActor {
  return async (key, active) => {
    try {
      return await resolve(key, active)
    } catch (error) {
      if (!siteAway(error)) throw error
      return sessions.actor(key, active)
    }
  }
}

/**
 * One dispatch for every call: the methods readable while away resolve a held session by its last
 * known role when the site is away; every other call still needs the site's word on the session.
 */
export function dispatchWhileAway(make: (resolve: ResolveActor) => Dispatch, resolve: ResolveActor, sessions: Pick<Sessions, 'actor'>): Dispatch {
  const live = make(resolve)
  const away = make(heldWhileAway(resolve, sessions))
  return (method, input, key) => (typeof method === 'string' && READABLE_WHILE_AWAY.has(method as MethodName) ? away : live)(method, input, key)
}
