import type { FrontDesk } from '../../records/frontdesk/front-desk'
import { frontDeskRoutes as r } from '../../shared/frontdesk-api'
import type { ListedFace } from '../../shared/listed-faces'
import { PUSH_MAX_MUTATIONS, type PullOp, type PullResult } from '../../shared/site-sync'
import { FRONTDESK_AUTH } from '../auth/front-desk-auth'
import type { EngineApp } from '../http/zod-provider'

/**
 * The most a push may carry: PUSH_MAX_MUTATIONS acts, each under 4 KB (its texts at most 1,008
 * characters, 3 bytes each in UTF-8, and ids), with room for the envelope. Past it: 413.
 */
export const SYNC_PUSH_BODY_LIMIT = PUSH_MAX_MUTATIONS * 4096 + 4096

/** A listed person's faces (their newest templates on this engine; none when unknown or not enrolled): bio/listed-faces.ts. */
export type FacesOf = (personUuid: string) => Promise<ListedFace[]>

/**
 * A site's kiosks keep copies of its records (electron/shared/site-sync.ts): GET /sync/pull sends
 * the changes since the kiosk's cookie, POST /sync/push applies the acts it made away from the site.
 * The kiosk is the token's, never the request's. The records layer knows nothing of faces: each
 * watchlist entry a pull sends is given its person's faces here, so the kiosk can screen faces while
 * the site is away.
 */
export function syncRoutes(app: EngineApp, frontDesk: FrontDesk, facesOf: FacesOf): void {
  app.get(r.syncPull.path, { config: { auth: FRONTDESK_AUTH[r.syncPull.auth] }, schema: { querystring: r.syncPull.querystring, response: { 200: r.syncPull.response } } }, async (request, reply) => {
    const pulled = await frontDesk.syncPull(request.kioskId!, request.query.cookie, { accounts: request.query.accounts === '1', invites: request.query.invites === '1' })
    return reply.header('Cache-Control', 'no-store').send(await withFaces(pulled, facesOf))
  })
  app.post(
    r.syncPush.path,
    { config: { auth: FRONTDESK_AUTH[r.syncPush.auth] }, bodyLimit: SYNC_PUSH_BODY_LIMIT, schema: { body: r.syncPush.body, response: { 200: r.syncPush.response } } },
    async (request) => frontDesk.syncPush(request.kioskId!, request.body.mutations),
  )
}

/** The pull with each listed person's faces on their entry: one read per entry, in turn (a reset pull of a long list reads them all). */
async function withFaces(pulled: PullResult, facesOf: FacesOf): Promise<PullResult> {
  const ops: PullOp[] = []
  for (const op of pulled.ops) {
    if (op.topic !== 'watchlist' || op.value === null) {
      ops.push(op)
      continue
    }
    const faces = await facesOf(op.value.personUuid)
    ops.push(faces.length > 0 ? { ...op, value: { ...op.value, faces } } : op)
  }
  return { ...pulled, ops }
}
