import { Agent, request } from 'undici'
import { READY_PATH } from './haproxy-config'
import { delay } from './processes'

/**
 * Resolves once the site's front answers GET /health/ready with 200: haproxy listens and has at
 * least one engine up. Certificates are not checked here: this only asks our own haproxy, on
 * the address we bound it to, whether it is up; the clients check the certificate.
 */
export async function waitForFront(url: string, timeoutMs: number): Promise<void> {
  const agent = new Agent({ connect: { rejectUnauthorized: false } })
  const deadline = Date.now() + timeoutMs
  let last = 'no answer'
  try {
    for (;;) {
      try {
        const reply = await request(`${url}${READY_PATH}`, { dispatcher: agent, headersTimeout: 5_000, bodyTimeout: 5_000 })
        await reply.body.dump()
        if (reply.statusCode === 200) return
        last = `status ${reply.statusCode}`
      } catch (error) {
        last = (error as Error).message
      }
      if (Date.now() > deadline) throw new Error(`${url}${READY_PATH} did not answer 200 within ${timeoutMs} ms (last: ${last})`)
      await delay(200)
    }
  } finally {
    await agent.close()
  }
}

/** The URL to reach a front bound to `host` from this machine (a wildcard bind: loopback). */
export function frontUrl(host: string, port: number, tls: boolean): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host
  return `${tls ? 'https' : 'http'}://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`
}
