import type { FrontDesk } from '../../records/frontdesk/front-desk'
import { frontDeskRoutes as r } from '../../shared/frontdesk-api'
import { FRONTDESK_AUTH } from '../auth/front-desk-auth'
import type { EngineApp } from '../http/zod-provider'

/**
 * Invites: staff make them (the invite names the session's account, never a body's), list and
 * revoke them; any kiosk of the site checks a code a visitor holds up (a check-in uses it up).
 */
export function inviteRoutes(app: EngineApp, frontDesk: FrontDesk): void {
  app.post(r.createInvite.path, { config: { auth: FRONTDESK_AUTH[r.createInvite.auth] }, schema: { body: r.createInvite.body, response: { 200: r.createInvite.response } } }, async (request, reply) => {
    const made = await frontDesk.createInvite({ ...request.body, createdBy: request.staff!.account })
    // The token is shown once: no cache keeps it.
    return reply.header('Cache-Control', 'no-store').send(made)
  })
  app.get(r.listInvites.path, { config: { auth: FRONTDESK_AUTH[r.listInvites.auth] }, schema: { querystring: r.listInvites.querystring, response: { 200: r.listInvites.response } } }, async (request) =>
    frontDesk.listInvites(request.query.state),
  )
  app.post(r.revokeInvite.path, { config: { auth: FRONTDESK_AUTH[r.revokeInvite.auth] }, schema: { params: r.revokeInvite.params, response: { 200: r.revokeInvite.response } } }, async (request) =>
    frontDesk.revokeInvite(request.params.id),
  )
  app.post(r.checkInvite.path, { config: { auth: FRONTDESK_AUTH[r.checkInvite.auth] }, schema: { body: r.checkInvite.body, response: { 200: r.checkInvite.response } } }, async (request) =>
    frontDesk.checkInvite(request.body.token),
  )
}
