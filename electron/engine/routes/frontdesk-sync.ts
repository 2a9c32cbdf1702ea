import type { FrontDesk } from '../../records/frontdesk/front-desk'
import { frontDeskRoutes as r } from '../../shared/frontdesk-api'
import { PUSH_MAX_MUTATIONS } from '../../shared/site-sync'
import { FRONTDESK_AUTH } from '../auth/front-desk-auth'
import type { EngineApp } from '../http/zod-provider'

/**
 * The most a push may carry: PUSH_MAX_MUTATIONS acts, each under 4 KB (its texts at most 1,008
 * characters, 3 bytes each in UTF-8, and ids), with room for the envelope. Past it: 413.
 */
export const SYNC_PUSH_BODY_LIMIT = PUSH_MAX_MUTATIONS * 4096 + 4096

/**
 * A site's kiosks keep copies of its records (electron/shared/site-sync.ts): GET /sync/pull sends
 * the changes since the kiosk's cookie, POST /sync/push applies the acts it made away from the site.
 * The kiosk is the token's, never the request's.
 */
export function syncRoutes(app: EngineApp, frontDesk: FrontDesk): void {
  app.get(r.syncPull.path, { config: { auth: FRONTDESK_AUTH[r.syncPull.auth] }, schema: { querystring: r.syncPull.querystring, response: { 200: r.syncPull.response } } }, async (request, reply) =>
    reply.header('Cache-Control', 'no-store').send(await frontDesk.syncPull(request.kioskId!, request.query.cookie, request.query.accounts === '1')),
  )
  app.post(
    r.syncPush.path,
    { config: { auth: FRONTDESK_AUTH[r.syncPush.auth] }, bodyLimit: SYNC_PUSH_BODY_LIMIT, schema: { body: r.syncPush.body, response: { 200: r.syncPush.response } } },
    async (request) => frontDesk.syncPush(request.kioskId!, request.body.mutations),
  )
}
