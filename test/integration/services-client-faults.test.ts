import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '../../electron/services/clients/api-error'
import { testBackend } from '../support/backend'

// A misbehaving server on loopback: each path answers in one broken way.
describe('API clients facing a broken server', () => {
  let server: Server
  let url: string
  const hanging: Array<() => void> = []
  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = request.url ?? ''
      if (path.startsWith('/v2/oauth2/oauth/token')) {
        response.setHeader('content-type', 'application/json')
        return response.end(JSON.stringify({ access_token: 'tok', token_type: 'bearer', expires_in: 3600 }))
      }
      if (path.includes('userId=garbage')) return response.end('{"uuid": "abc", "userId": ')
      if (path.includes('userId=wrong-shape')) return response.end(JSON.stringify({ id: 7 }))
      if (path.includes('userId=boom')) {
        response.statusCode = 500
        return response.end(JSON.stringify({ status: 500, message: 'database on fire' }))
      }
      if (path.includes('userId=busy')) {
        response.statusCode = 429
        return response.end()
      }
      if (path.includes('userId=hang')) return void hanging.push(() => response.end())
      response.statusCode = 404
      response.end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    hanging.forEach((finish) => finish())
    await new Promise((resolve) => server.close(resolve))
  })

  const lookup = async (userId: string, timeoutMs = 5000) => {
    const backend = testBackend(url, { requestTimeoutMs: timeoutMs })
    try {
      return await backend.persons.findPersonByUserId(userId).catch((error: unknown) => error)
    } finally {
      await backend.close()
    }
  }

  it('turns a reply that is not JSON into BAD_REPLY naming the call', async () => {
    const error = await lookup('garbage')
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ code: 'BAD_REPLY', message: 'The person server sent a reply to look up by userId that is not JSON.' })
  })

  it('turns JSON of the wrong shape into BAD_REPLY naming the field', async () => {
    expect(await lookup('wrong-shape')).toMatchObject({ code: 'BAD_REPLY', message: expect.stringMatching(/\(id: /) })
  })

  it('turns 500 and 429 into retryable SERVER_ERRORs with the server message', async () => {
    expect(await lookup('boom')).toMatchObject({ code: 'SERVER_ERROR', status: 500, retryable: true, message: expect.stringContaining('database on fire') })
    expect(await lookup('busy')).toMatchObject({ code: 'SERVER_ERROR', status: 429, retryable: true })
  })

  it('gives up on a server that hangs past the request timeout', async () => {
    expect(await lookup('hang', 300)).toMatchObject({ code: 'TIMEOUT', retryable: true })
  })

  it('treats 404 on a look-up as "nobody"', async () => {
    expect(await lookup('nobody')).toBeNull()
  })
})
