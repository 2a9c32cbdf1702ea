import type { FrontDesk } from '../../records/frontdesk/front-desk'
import { KioskError } from '../../shared/errors'
import { frontDeskRoutes as r } from '../../shared/frontdesk-api'
import { FRONTDESK_AUTH } from '../auth/front-desk-auth'
import type { EngineApp } from '../http/zod-provider'

/**
 * Visits: one list of who is on site, whichever kiosk they came through. The kiosk a visitor
 * stands at is the token's (never the body's); a visitor's calls (check in, check out, their last
 * visit) need only the kiosk's token, staff's views and acts a session.
 */
export function visitRoutes(app: EngineApp, frontDesk: FrontDesk): void {
  app.post(r.checkIn.path, { config: { auth: FRONTDESK_AUTH[r.checkIn.auth] }, schema: { body: r.checkIn.body, response: { 200: r.checkIn.response } } }, async (request) =>
    frontDesk.checkIn({ ...request.body, kioskId: request.kioskId! }),
  )
  app.post(r.checkOut.path, { config: { auth: FRONTDESK_AUTH[r.checkOut.auth] }, schema: { params: r.checkOut.params, response: { 200: r.checkOut.response } } }, async (request) => ({
    visit: await frontDesk.checkOut(request.params.personUuid),
  }))
  app.get(r.lastVisit.path, { config: { auth: FRONTDESK_AUTH[r.lastVisit.auth] }, schema: { params: r.lastVisit.params, response: { 200: r.lastVisit.response } } }, async (request) => ({
    visit: await frontDesk.lastVisitOf(request.params.personUuid),
  }))
  app.get(r.onSite.path, { config: { auth: FRONTDESK_AUTH[r.onSite.auth] }, schema: { response: { 200: r.onSite.response } } }, async () => frontDesk.onSite())
  app.post(r.visitLog.path, { config: { auth: FRONTDESK_AUTH[r.visitLog.auth] }, schema: { body: r.visitLog.body, response: { 200: r.visitLog.response } } }, async (request) => {
    const { pageNo, pageSize, ...filter } = request.body
    return frontDesk.visitLog(filter, pageNo, pageSize)
  })
  app.post(r.visitOverview.path, { config: { auth: FRONTDESK_AUTH[r.visitOverview.auth] }, schema: { body: r.visitOverview.body, response: { 200: r.visitOverview.response } } }, async (request) =>
    frontDesk.visitOverview(request.body),
  )
  app.post(r.exportVisits.path, { config: { auth: FRONTDESK_AUTH[r.exportVisits.auth] }, schema: { body: r.exportVisits.body, response: { 200: r.exportVisits.response } } }, async (request) =>
    frontDesk.exportVisits(request.body),
  )
  app.post(r.endVisit.path, { config: { auth: FRONTDESK_AUTH[r.endVisit.auth] }, schema: { params: r.endVisit.params, response: { 200: r.endVisit.response } } }, async (request) =>
    frontDesk.endVisit(request.params.id),
  )
  app.post(r.forgetPerson.path, { config: { auth: FRONTDESK_AUTH[r.forgetPerson.auth] }, schema: { body: r.forgetPerson.body, response: { 200: r.forgetPerson.response } } }, async (request) => {
    const { userId, personUuid } = request.body
    // Neither key would name nobody, never everybody: refused rather than left to chance.
    if (userId === undefined && personUuid === undefined) throw new KioskError('INVALID_INPUT', 'Name the person to forget by e-mail or person id.')
    return frontDesk.forgetPerson({ ...(userId === undefined ? {} : { userId }), ...(personUuid === undefined ? {} : { personUuid }) })
  })
}
