import type { HostNoticesService } from '../../records/frontdesk/notices/service'
import { frontDeskRoutes as r } from '../../shared/frontdesk-api'
import { FRONTDESK_AUTH } from '../auth/front-desk-auth'
import type { EngineApp } from '../http/zod-provider'

/**
 * The site's host notices: operators see the queue and retry a notice, administrators set the
 * SMTP server and the secrets (write-only: a reply says which are stored, never a value). The
 * notices themselves are queued by the check-in and sent by every engine's runner.
 */
export function noticeRoutes(app: EngineApp, notices: HostNoticesService): void {
  app.get(r.getHostNotices.path, { config: { auth: FRONTDESK_AUTH[r.getHostNotices.auth] }, schema: { response: { 200: r.getHostNotices.response } } }, async () => notices.queue())
  app.post(r.retryHostNotice.path, { config: { auth: FRONTDESK_AUTH[r.retryHostNotice.auth] }, schema: { params: r.retryHostNotice.params, response: { 200: r.retryHostNotice.response } } }, async (request) =>
    notices.retry(request.params.id),
  )
  app.get(r.getHostNoticeSettings.path, { config: { auth: FRONTDESK_AUTH[r.getHostNoticeSettings.auth] }, schema: { response: { 200: r.getHostNoticeSettings.response } } }, async () =>
    notices.settings(),
  )
  app.put(
    r.saveHostNoticeSettings.path,
    { config: { auth: FRONTDESK_AUTH[r.saveHostNoticeSettings.auth] }, schema: { body: r.saveHostNoticeSettings.body, response: { 200: r.saveHostNoticeSettings.response } } },
    async (request) => notices.saveSettings(request.body.smtp),
  )
  app.put(
    r.setHostNoticeSecrets.path,
    { config: { auth: FRONTDESK_AUTH[r.setHostNoticeSecrets.auth] }, schema: { body: r.setHostNoticeSecrets.body, response: { 200: r.setHostNoticeSecrets.response } } },
    async (request, reply) => reply.header('Cache-Control', 'no-store').send(await notices.setSecrets(request.body)),
  )
}
