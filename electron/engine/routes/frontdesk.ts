import type { FrontDesk } from '../../records/frontdesk/front-desk'
import type { HostNoticesService } from '../../records/frontdesk/notices/service'
import { KioskError } from '../../shared/errors'
import { frontDeskRoutes as r, LOOK_BODY_LIMIT, type FrontDeskAuth } from '../../shared/frontdesk-api'
import { FRONTDESK_AUTH, kioskClientId } from '../auth/front-desk-auth'
import type { EngineApp } from '../http/zod-provider'
import type { ClientRepository } from '../store/clients'
import type { SiteEvents } from '../store/site-events'
import { eventStreamRoute, type EventStreamLimits } from './frontdesk-events'
import { hostRoutes } from './frontdesk-hosts'
import { inviteRoutes } from './frontdesk-invites'
import { noticeRoutes } from './frontdesk-notices'
import { pairRoute, type PairingOptions } from './frontdesk-pairing'
import { announceAfterWrites, type RecordsChanged } from './frontdesk-records-changed'
import { syncRoutes, type FacesOf } from './frontdesk-sync'
import { visitRoutes } from './frontdesk-visits'

export { FRONTDESK_PREFIX } from '../../shared/frontdesk-api'

export interface FrontDeskRouteOptions extends EventStreamLimits, PairingOptions {
  frontDesk: FrontDesk
  /** OAuth clients: a removed kiosk's goes with it. */
  clients: Pick<ClientRepository, 'remove'>
  events: SiteEvents
  /** The site's host notices: their queue and settings (the engine runs their runner). */
  notices: HostNoticesService
  /** Tells kiosks to pull once a call may have changed what they copy. */
  recordsChanged: RecordsChanged
  /** A listed person's faces, sent with their watchlist entry in a pull (the records layer knows no faces). */
  facesOf: FacesOf
  log: (line: string) => void
}

const as = (auth: FrontDeskAuth) => ({ auth: FRONTDESK_AUTH[auth] })

/**
 * The site's front desk, registered under FRONTDESK_PREFIX: every route of the shared
 * table (electron/shared/frontdesk-api.ts), with its schemas and who may call it. The rules are the
 * FrontDesk's; here only who is asking: the kiosk is the token's, the staff member the session's
 * (`addedBy`, `by`, `createdBy` are never taken from a body). Replies are 200 with the route's
 * schema, or 204 for routes with none.
 */
export async function frontDeskRoutes(app: EngineApp, options: FrontDeskRouteOptions): Promise<void> {
  const { frontDesk } = options
  const staff = (request: { staff: { account: string } | null }) => request.staff!.account
  const kiosk = (request: { kioskId: string | null }) => request.kioskId!

  announceAfterWrites(app, options.recordsChanged)
  pairRoute(app, frontDesk, options)
  eventStreamRoute(app, frontDesk, options.events, options, options.log)

  app.post(r.createPairingCode.path, { config: as(r.createPairingCode.auth), schema: { response: { 200: r.createPairingCode.response } } }, async (request) =>
    frontDesk.createPairingCode(staff(request)),
  )
  app.get(r.listKiosks.path, { config: as(r.listKiosks.auth), schema: { response: { 200: r.listKiosks.response } } }, async (request) =>
    (await frontDesk.listKiosks()).map((listed) => ({ ...listed, thisKiosk: listed.id === request.kioskId })),
  )
  app.post(r.reportHealth.path, { config: as(r.reportHealth.auth), schema: { body: r.reportHealth.body } }, async (request, reply) => {
    await frontDesk.reportKioskHealth(kiosk(request), request.body)
    return reply.code(204).send()
  })
  app.delete(r.removeKiosk.path, { config: as(r.removeKiosk.auth), schema: { params: r.removeKiosk.params} }, async (request, reply) => {
    const { id } = request.params
    // The client first: once it is gone no new token is issued, whatever happens next.
    await options.clients.remove(kioskClientId(id))
    if (!(await frontDesk.removeKiosk(id))) throw new KioskError('NOT_FOUND', 'No kiosk of this site has this id.')
    options.log(`kiosk ${id} removed by ${staff(request)}`)
    return reply.code(204).send()
  })

  app.get(r.staffStatus.path, { config: as(r.staffStatus.auth), schema: { response: { 200: r.staffStatus.response } } }, async () => ({
    accounts: await frontDesk.accountCount(),
  }))
  app.post(r.signIn.path, { config: as(r.signIn.auth), schema: { body: r.signIn.body, response: { 200: r.signIn.response } } }, async (request, reply) => {
    const result = await frontDesk.signIn(request.body.name, request.body.secret, kiosk(request))
    return reply.header('Cache-Control', 'no-store').send(result)
  })
  app.post(r.createFirstAdmin.path, { config: as(r.createFirstAdmin.auth), schema: { body: r.createFirstAdmin.body, response: { 200: r.createFirstAdmin.response } } }, async (request, reply) => {
    const result = await frontDesk.createFirstAdmin(request.body.name, request.body.secret, kiosk(request))
    return reply.header('Cache-Control', 'no-store').send(result)
  })
  // The session was read again, and the role checked, before the handler (route-table.ts).
  app.get(r.session.path, { config: as(r.session.auth), schema: { response: { 200: r.session.response } } }, async (request) => ({
    account: request.staff!.account,
    role: request.staff!.role,
  }))
  app.delete(r.signOut.path, { config: as(r.signOut.auth) }, async (request, reply) => {
    await frontDesk.signOut(request.staff!.session)
    return reply.code(204).send()
  })
  app.get(r.listAccounts.path, { config: as(r.listAccounts.auth), schema: { response: { 200: r.listAccounts.response } } }, async () => frontDesk.listAccounts())
  app.post(r.createAccount.path, { config: as(r.createAccount.auth), schema: { body: r.createAccount.body, response: { 200: r.createAccount.response } } }, async (request) =>
    frontDesk.createAccount(request.body.name, request.body.role, request.body.secret),
  )
  app.post(r.setAccountDisabled.path, { config: as(r.setAccountDisabled.auth), schema: { body: r.setAccountDisabled.body, response: { 200: r.setAccountDisabled.response } } }, async (request) =>
    frontDesk.setAccountDisabled(request.body.name, request.body.disabled),
  )

  app.get(r.listWatchlist.path, { config: as(r.listWatchlist.auth), schema: { response: { 200: r.listWatchlist.response } } }, async () => frontDesk.listWatchlist())
  app.post(r.addToWatchlist.path, { config: as(r.addToWatchlist.auth), schema: { body: r.addToWatchlist.body, response: { 200: r.addToWatchlist.response } } }, async (request) =>
    frontDesk.addToWatchlist({ ...request.body, addedBy: staff(request) }),
  )
  app.delete(r.removeFromWatchlist.path, { config: as(r.removeFromWatchlist.auth), schema: { params: r.removeFromWatchlist.params} }, async (request, reply) => {
    if (!(await frontDesk.removeFromWatchlist(request.params.personUuid))) throw new KioskError('NOT_FOUND', 'This person is not on the watchlist.')
    return reply.code(204).send()
  })
  app.post(r.screen.path, { config: as(r.screen.auth), schema: { body: r.screen.body, response: { 200: r.screen.response } } }, async (request) =>
    frontDesk.screen({ ...request.body, kioskId: kiosk(request) }),
  )
  app.get(r.watchlistAlerts.path, { config: as(r.watchlistAlerts.auth), schema: { response: { 200: r.watchlistAlerts.response } } }, async () => frontDesk.watchlistAlerts())
  app.post(r.dismissAlert.path, { config: as(r.dismissAlert.auth), schema: { params: r.dismissAlert.params} }, async (request, reply) => {
    if (!(await frontDesk.dismissAlert(request.params.id, staff(request)))) throw new KioskError('NOT_FOUND', 'No open alert has this id (it may have been dismissed at another kiosk).')
    return reply.code(204).send()
  })
  app.get(r.inviteAlerts.path, { config: as(r.inviteAlerts.auth), schema: { response: { 200: r.inviteAlerts.response } } }, async () => frontDesk.inviteAlerts())
  app.post(r.dismissInviteAlert.path, { config: as(r.dismissInviteAlert.auth), schema: { params: r.dismissInviteAlert.params } }, async (request, reply) => {
    if (!(await frontDesk.dismissInviteAlert(request.params.id, staff(request)))) throw new KioskError('NOT_FOUND', 'No open invitation alert has this id (it may have been dismissed at another kiosk).')
    return reply.code(204).send()
  })

  app.get(r.look.path, { config: as(r.look.auth), schema: { response: { 200: r.look.response } } }, async () => frontDesk.getLook())
  app.put(r.setLook.path, { config: as(r.setLook.auth), bodyLimit: LOOK_BODY_LIMIT, schema: { body: r.setLook.body, response: { 200: r.setLook.response } } }, async (request) => {
    const look = await frontDesk.setLook(request.body)
    options.log(`the look (${Object.keys(request.body).sort().join(', ')}) set by ${staff(request)}`)
    return look
  })

  hostRoutes(app, frontDesk)
  visitRoutes(app, frontDesk)
  inviteRoutes(app, frontDesk)
  noticeRoutes(app, options.notices)
  syncRoutes(app, frontDesk, options.facesOf)
}
