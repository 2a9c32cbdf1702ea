import { createServer, type IncomingHttpHeaders } from 'node:http'
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net'
import { SMTPServer } from 'smtp-server'

/** One e-mail as the SMTP server took it. */
export interface ReceivedMail {
  from: string
  to: string[]
  /** The whole message as sent (headers and body). */
  raw: string
  /** The account the client signed in as; null without a login. */
  user: string | null
}

export interface SmtpOptions {
  /** Sign-in required with exactly these; anything else is refused with 535. */
  login?: { user: string; password: string }
  /** How the server answers each message, in order; once exhausted, it accepts. An SMTP reply code >= 400 refuses it. */
  answers?: number[]
  /** How long it takes to answer each message (a slow relay). */
  delayMs?: number
}

export interface LocalSmtp {
  port: number
  mails: ReceivedMail[]
  /** Messages refused so far (each refusal is one attempt the client made). */
  refused: number
  /** Replaces the answers still to come. */
  answer(codes: number[]): void
  close(): Promise<void>
}

/** A TCP server on 127.0.0.1 that accepts connections and never says a word (an SMTP server that hangs). */
export async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  const server = createTcpServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/** A real SMTP server (smtp-server) on 127.0.0.1, a random port, plain (no STARTTLS): what the kiosk's e-mail channel talks to in tests. */
export async function startSmtp(options: SmtpOptions = {}): Promise<LocalSmtp> {
  const mails: ReceivedMail[] = []
  let answers = [...(options.answers ?? [])]
  const state = { refused: 0 }
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: !options.login,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (options.login && auth.username === options.login.user && auth.password === options.login.password) callback(null, { user: auth.username })
      else callback(Object.assign(new Error('Authentication failed'), { responseCode: 535 }))
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => setTimeout(answer, options.delayMs ?? 0))
      function answer() {
        const code = answers.shift()
        if (code !== undefined && code >= 400) {
          state.refused++
          callback(Object.assign(new Error(code >= 500 ? 'Mailbox unavailable' : 'Try again later'), { responseCode: code }))
          return
        }
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          user: typeof session.user === 'string' ? session.user : null,
        })
        callback()
      }
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const port = (server.server.address() as AddressInfo).port
  return {
    port,
    mails,
    get refused() {
      return state.refused
    },
    answer: (codes) => {
      answers = [...codes]
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** One POST as the receiver took it, with its raw body (a signature is over the exact bytes). */
export interface ReceivedPost {
  path: string
  headers: IncomingHttpHeaders
  body: string
}

export interface LocalReceiver {
  url: string
  posts: ReceivedPost[]
  /** Replaces the statuses still to come (0: no answer at all); once exhausted, it answers 204. */
  answer(statuses: number[]): void
  close(): Promise<void>
}

/**
 * A webhook receiver (node:http) on 127.0.0.1, a random port: it records every request and answers
 * with the statuses it is given (0: never), each after `delayMs` (a slow receiver).
 */
export async function startReceiver(statuses: number[] = [], delayMs = 0): Promise<LocalReceiver> {
  const posts: ReceivedPost[] = []
  let answers = [...statuses]
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      posts.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      const status = answers.shift() ?? 204
      // 0: never answer (a receiver that hangs); the connection is closed with the server.
      if (status === 0) return
      setTimeout(() => {
        res.statusCode = status
        res.end()
      }, delayMs)
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/arrivals`,
    posts,
    answer: (next) => {
      answers = [...next]
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * A text/plain message as a reader sees it: its headers unfolded, encoded words (RFC 2047) and the
 * body's transfer encoding (quoted-printable or base64) decoded. Enough for what nodemailer sends.
 */
export function readMail(raw: string): { headers: Record<string, string>; subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n')
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ')
  const body = raw.slice(split + 4)
  const headers: Record<string, string> = {}
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
  }
  const words = (value: string) =>
    value.replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_m, kind: string, data: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : quotedPrintable(data.replace(/_/g, ' ')),
    )
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase()
  const text = encoding === 'quoted-printable' ? quotedPrintable(body.replace(/=\r\n/g, '')) : encoding === 'base64' ? Buffer.from(body, 'base64').toString('utf8') : body
  return { headers, subject: words(headers.subject ?? '').trim(), text: text.replace(/\r\n/g, '\n') }
}

function quotedPrintable(value: string): string {
  const bytes: number[] = []
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '=' && /^[0-9A-F]{2}$/i.test(value.slice(i + 1, i + 3))) {
      bytes.push(parseInt(value.slice(i + 1, i + 3), 16))
      i += 2
    } else bytes.push(...Buffer.from(value[i]!, 'utf8'))
  }
  return Buffer.from(bytes).toString('utf8')
}
