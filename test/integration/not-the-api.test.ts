import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '../../electron/services/clients/api-error'
import { backendProbe } from '../../electron/services/outbox/probe'
import { testBackend } from '../support/backend'

// Something in front of the servers answers while they are away: a gateway with no route (an HTML
// 404), a captive portal (a 200 sign-in page, or a 302 to it). One rule for every client call:
// such a reply is "the servers were not reached", never "not found", "refused" or "up".
type Mode = 'api' | 'html404' | 'text404' | 'json404-other' | 'login200' | 'redirect302'

describe('replies that are not the API', () => {
  let server: Server
  let url: string
  let mode: Mode = 'api'
  const html = '<!DOCTYPE html><html><body><h1>404 Not Found</h1></body></html>'
  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = request.url ?? ''
      const send = (status: number, body: string, type: string, headers: Record<string, string> = {}) => {
        response.writeHead(status, { 'content-type': type, ...headers })
        response.end(body)
      }
      switch (mode) {
        case 'html404':
          return send(404, html, 'text/html')
        case 'text404':
          return send(404, '404 page not found', 'text/plain')
        case 'json404-other':
          return send(404, JSON.stringify({ route: 'none' }), 'application/json')
        case 'login200':
          return send(200, '<html><body><form action="/login">Sign in to use this network</form></body></html>', 'text/html')
        case 'redirect302':
          return send(302, '', 'text/plain', { location: 'http://portal.invalid/login' })
        case 'api':
          break
      }
      if (path.startsWith('/v2/oauth2/oauth/token')) return send(200, JSON.stringify({ access_token: 'tok', token_type: 'bearer', expires_in: 3600 }), 'application/json')
      if (path.startsWith('/v2/gmiserver/tenant/')) {
        if (path.includes('/person/')) return send(404, '', 'application/json')
        return send(200, JSON.stringify({ code: 'FRONTDESK', name: 'Front desk' }), 'application/json')
      }
      if (path.startsWith('/bioengine/template-types')) return send(200, JSON.stringify({ templateTypes: [{ templateType: 'Face:HumanFaceRes', scoreThreshold: 48 }] }), 'application/json')
      if (path.startsWith('/v2/gmiserver/person')) return send(404, JSON.stringify({ status: 404, error: 'Not Found', message: 'no person with that userId' }), 'application/json')
      send(404, '', 'application/json')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
  })

  /** A fresh backend (no cached token) in `next` mode, closed after `work`. */
  const inMode = async <T>(next: Mode, work: (backend: ReturnType<typeof testBackend>) => Promise<T>): Promise<T> => {
    mode = next
    const backend = testBackend(url, { requestTimeoutMs: 5000 })
    try {
      return await work(backend)
    } finally {
      await backend.close()
    }
  }

  it('reads a 404 as "not found" only with the API’s error shape or an empty body', async () => {
    await inMode('api', async (backend) => {
      expect(await backend.persons.findPersonByUserId('nobody@example.com')).toBeNull()
      expect(await backend.persons.tenantPerson('FRONTDESK', 'b1e0c5d4-0000-4000-8000-000000000000')).toBeNull()
    })
  })

  it.each(['html404', 'text404', 'json404-other', 'login200', 'redirect302'] as const)('reads %s as "not reached", on look-ups, changes and the token call', async (next) => {
    await inMode(next, async (backend) => {
      // The token call itself meets the page first.
      const lookup = await backend.persons.findPersonByUserId('ana@example.com').catch((error: unknown) => error)
      expect(lookup).toBeInstanceOf(ApiError)
      expect(lookup).toMatchObject({ code: 'UNREACHABLE', status: null, retryable: true })
      expect((lookup as ApiError).message).toMatch(/something else answered/)
      mode = 'api'
      await backend.persons.tenantPersons('FRONTDESK').catch(() => undefined) // a token is issued
      mode = next
      for (const call of [
        () => backend.persons.findPersonByUserId('ana@example.com'),
        () => backend.persons.tenantPerson('FRONTDESK', 'b1e0c5d4-0000-4000-8000-000000000000'),
        () => backend.persons.disassociatePerson('FRONTDESK', 'b1e0c5d4-0000-4000-8000-000000000000'),
        () => backend.persons.deletePerson('b1e0c5d4-0000-4000-8000-000000000000'),
        () => backend.bio.templateTypes(),
      ]) {
        expect(await call().then(() => 'answered', (error: unknown) => error)).toMatchObject({ code: 'UNREACHABLE', status: null })
      }
    })
  })

  it('the health probe says "back" only when both servers answer as the API does, with a token issued', async () => {
    expect(await inMode('api', (backend) => backendProbe(backend)(AbortSignal.timeout(5000)))).toBe(true)
    for (const next of ['html404', 'text404', 'json404-other', 'login200', 'redirect302'] as const) {
      // With no token yet: the token call meets the page.
      expect(await inMode(next, (backend) => backendProbe(backend)(AbortSignal.timeout(5000))), `${next}, token call`).toBe(false)
      // With a token issued before the servers went away: the reads meet it.
      expect(
        await inMode('api', async (backend) => {
          await backend.persons.tokens.get()
          mode = next
          return backendProbe(backend)(AbortSignal.timeout(5000))
        }),
        `${next}, reads`,
      ).toBe(false)
    }
  })
})
