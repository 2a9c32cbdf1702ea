import type { FrontDesk } from '../../records/frontdesk/front-desk'
import type { HostFields } from '../../records/frontdesk/visit-types'
import { KioskError } from '../../shared/errors'
import { frontDeskRoutes as r } from '../../shared/frontdesk-api'
import { FRONTDESK_AUTH } from '../auth/front-desk-auth'
import type { EngineApp } from '../http/zod-provider'

/** The words staff read before the directory was the site's (features/visits.ts). */
const NO_SUCH_HOST = 'There is no such host.'

/** A host as the body gives it: optional contacts are none. */
const fieldsOf = (body: { name: string; email?: string | null | undefined; webhookUrl?: string | null | undefined }): HostFields => ({
  name: body.name,
  email: body.email ?? null,
  webhookUrl: body.webhookUrl ?? null,
})

/**
 * The site's hosts directory: staff keep it (operators), a visitor at a kiosk sees only whom they
 * can pick (ids and names, never a host's e-mail or webhook).
 */
export function hostRoutes(app: EngineApp, frontDesk: FrontDesk): void {
  app.get(r.listHosts.path, { config: { auth: FRONTDESK_AUTH[r.listHosts.auth] }, schema: { response: { 200: r.listHosts.response } } }, async () => frontDesk.listHosts())
  app.get(r.listHostNames.path, { config: { auth: FRONTDESK_AUTH[r.listHostNames.auth] }, schema: { response: { 200: r.listHostNames.response } } }, async () =>
    (await frontDesk.listHosts()).map(({ id, name }) => ({ id, name })),
  )
  app.post(r.addHost.path, { config: { auth: FRONTDESK_AUTH[r.addHost.auth] }, schema: { body: r.addHost.body, response: { 200: r.addHost.response } } }, async (request) =>
    frontDesk.addHost(fieldsOf(request.body)),
  )
  app.put(
    r.updateHost.path,
    { config: { auth: FRONTDESK_AUTH[r.updateHost.auth] }, schema: { params: r.updateHost.params, body: r.updateHost.body, response: { 200: r.updateHost.response } } },
    async (request) => {
      const host = await frontDesk.updateHost(request.params.id, fieldsOf(request.body))
      if (!host) throw new KioskError('NOT_FOUND', NO_SUCH_HOST)
      return host
    },
  )
  app.delete(r.removeHost.path, { config: { auth: FRONTDESK_AUTH[r.removeHost.auth] }, schema: { params: r.removeHost.params } }, async (request, reply) => {
    if (!(await frontDesk.removeHost(request.params.id))) throw new KioskError('NOT_FOUND', NO_SUCH_HOST)
    return reply.code(204).send()
  })
}
