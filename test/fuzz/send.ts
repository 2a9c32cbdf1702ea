import { performance } from 'node:perf_hooks'
import { Readable } from 'node:stream'
import { Client, FormData } from 'undici'
import type { BodySpec, FuzzRequest } from './requests'

export interface Outcome {
  index: number
  request: FuzzRequest
  /** null: no HTTP answer (see error). */
  status: number | null
  error: string | null
  ms: number
  retryAfter: string | undefined
  /** The start of a 5xx answer's body, for the report. */
  answer?: string
  /** The request sent just before on the same connection: a request can wedge the one after it. */
  previous: number | null
}

/** `{"pad":"AAAA…"}`, exactly `size` bytes of valid JSON; in 1 MB chunks when `chunked`. */
function paddedBody(size: number, chunked: boolean): Buffer | Readable {
  const text = () => Buffer.concat([Buffer.from('{"pad":"'), Buffer.alloc(size - 10, 'A'), Buffer.from('"}')])
  if (!chunked) return text()
  return Readable.from(
    (function* () {
      const chunk = Buffer.alloc(1024 * 1024, 'A')
      yield Buffer.from('{"pad":"')
      for (let left = size - 10; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left)
      yield Buffer.from('"}')
    })(),
  )
}

function bodyOf(spec: BodySpec, files: Buffer[]): Buffer | Readable | FormData | undefined {
  switch (spec.kind) {
    case 'none':
      return undefined
    case 'bytes':
      return spec.bytes
    case 'padded':
      return paddedBody(spec.size, spec.chunked)
    case 'multipart': {
      const form = new FormData()
      for (const part of spec.parts) form.append(part.field, new Blob([files[part.file]!]), part.name)
      return form
    }
  }
}

/**
 * Sends every request, `concurrency` at a time, each caller on its own keep-alive connection (so a
 * failure can name the request sent before it on that connection), each timed from send to its
 * whole answer read. A request still unanswered after `abortMs` is abandoned and recorded with the
 * time it was given (so a hung engine cannot hang the suite). After an answer that closes the
 * connection, or a failure, the caller opens a new one: the next request must not be sent into a
 * socket the engine has (rightly) closed, nor into one it has wedged (that is already recorded).
 */
/** Errors of a request sent into a connection the other side had already closed. */
function isStaleConnection(error: string | null): boolean {
  return /^(UND_ERR_SOCKET|ECONNRESET|EPIPE):/.test(error ?? '')
}

async function sendOne(client: Client, index: number, request: FuzzRequest, previous: number | null, options: { abortMs: number; files: Buffer[] }): Promise<Outcome & { closes?: boolean }> {
  const started = performance.now()
  try {
    const reply = await client.request({
      method: request.method as 'GET',
      path: request.path,
      headers: request.headers,
      body: bodyOf(request.body, options.files),
      signal: AbortSignal.timeout(options.abortMs),
    })
    const answer = Buffer.from(await reply.body.arrayBuffer())
    const ms = performance.now() - started
    const retryAfter = reply.headers['retry-after']
    return {
      index,
      request,
      status: reply.statusCode,
      error: null,
      ms,
      retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      ...(reply.statusCode >= 500 ? { answer: answer.subarray(0, 300).toString() } : {}),
      previous,
      closes: String(reply.headers.connection).toLowerCase() === 'close',
    }
  } catch (error) {
    const code = typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : (error as Error).name
    return { index, request, status: null, error: `${code}: ${(error as Error).message}`, ms: performance.now() - started, retryAfter: undefined, previous }
  }
}

export async function sendAll(url: string, requests: FuzzRequest[], options: { concurrency: number; abortMs: number; files: Buffer[] }): Promise<Outcome[]> {
  const outcomes: Outcome[] = new Array(requests.length)
  const open = new Set<Client>()
  const connect = () => {
    const client = new Client(url, { pipelining: 1 })
    open.add(client)
    return client
  }
  const retire = (client: Client) => {
    open.delete(client)
    void client.destroy().catch(() => {})
  }
  let next = 0
  try {
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        let client = connect()
        let previous: number | null = null
        for (let index = next++; index < requests.length; index = next++) {
          const request = requests[index]!
          let outcome = await sendOne(client, index, request, previous, options)
          if (outcome.status === null && previous !== null && isStaleConnection(outcome.error)) {
            // The engine closed this keep-alive connection after its last answer (without saying
            // Connection: close, as Fastify's 431 does): send again on a new one, as browsers do.
            retire(client)
            client = connect()
            outcome = await sendOne(client, index, request, null, options)
          }
          outcomes[index] = outcome
          if (outcome.status === null || outcome.closes) {
            retire(client)
            client = connect()
            previous = null
            continue
          }
          previous = index
        }
      }),
    )
  } finally {
    await Promise.all([...open].map((client) => client.destroy()))
  }
  return outcomes
}
