import type { FastifyRequest } from 'fastify'
import type { FrontDesk } from '../../records/frontdesk/front-desk'
import { KioskError } from '../../shared/errors'
import { KIOSK_CLIENT_PREFIX, STAFF_SESSION_HEADER, type FrontDeskAuth, type StaffWho } from '../../shared/frontdesk-api'
import { roleAllows, type StaffRole } from '../../shared/staff'
import { HttpError } from '../http/errors'
import type { RouteAuth } from '../http/route-table'

/** The engine's route auth for each kind of front-desk caller of the shared table (checked in route-table.ts). */
export const FRONTDESK_AUTH = { pairing: 'none', kiosk: 'kiosk', operator: 'frontdesk-operator', admin: 'frontdesk-admin' } as const satisfies Record<FrontDeskAuth, RouteAuth>

/** Ids the site gives its kiosks (randomUUID): lower-case, as made. */
const KIOSK_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/**
 * The kiosk a client id names when it is a paired kiosk's (`kiosk-<uuid>`), else null. Only the
 * uuid form: clients made by hand with --client-id (`kiosk-test`, a vendor's `kiosk-lobby`) share
 * the prefix but are no kiosk of the site, and must keep working as before.
 */
export function pairedKioskId(clientId: string): string | null {
  if (!clientId.startsWith(KIOSK_CLIENT_PREFIX)) return null
  const id = clientId.slice(KIOSK_CLIENT_PREFIX.length)
  return KIOSK_ID.test(id) ? id : null
}

export function kioskClientId(kioskId: string): string {
  return `${KIOSK_CLIENT_PREFIX}${kioskId}`
}

/**
 * A paired kiosk's token is refused the moment its kiosk is removed, on every route: tokens are
 * good for an hour and carry no revocation of their own, so the kiosk row is read on each call.
 * (seenKiosk also records the call as the kiosk's last sign of life.)
 */
export async function requireActiveKiosk(frontDesk: Pick<FrontDesk, 'seenKiosk'>, kioskId: string): Promise<void> {
  if (!(await frontDesk.seenKiosk(kioskId))) throw new HttpError(401, 'This kiosk has been removed from the site: pair it again.')
}

/** A staff session as the route sees it: who, with which role, and the session token to end it. */
export interface StaffCaller extends StaffWho {
  session: string
}

/** Opaque, but bounded: junk is refused before the database is asked. */
const SESSION_TOKEN = /^[\x21-\x7e]{1,256}$/

/**
 * The staff session a kiosk's staff call carries, read again from its account on every call (so a
 * disabled or demoted account is refused at once), and checked against the role the route needs.
 * The site decides; the kiosk's own check is only a first filter.
 */
export async function requireStaff(request: FastifyRequest, frontDesk: Pick<FrontDesk, 'session'>, needed: StaffRole): Promise<StaffCaller> {
  const header = request.headers[STAFF_SESSION_HEADER]
  const session = typeof header === 'string' ? header.trim() : ''
  if (!session) throw new KioskError('UNAUTHORIZED', 'Staff must sign in for this.')
  if (!SESSION_TOKEN.test(session)) throw new KioskError('UNAUTHORIZED', 'This staff session is not valid: sign in again.')
  const who = await frontDesk.session(session)
  if (!roleAllows(who.role, needed)) throw new KioskError('FORBIDDEN', `This needs an ${needed === 'admin' ? 'administrator' : 'operator'}; ${who.account} is signed in as ${who.role === 'admin' ? 'an administrator' : 'an operator'}.`)
  return { ...who, session }
}
