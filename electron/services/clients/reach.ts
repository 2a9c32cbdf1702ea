import { connect } from 'node:net'
import { ApiError } from './api-error'

/** Why nothing answered, in words staff can act on (the errno stays in brackets for the log). */
const reasons: Record<string, string> = {
  ECONNREFUSED: 'nothing is listening there',
  ENOTFOUND: 'that name cannot be found',
  EAI_AGAIN: 'that name cannot be looked up right now',
  EHOSTUNREACH: 'that host cannot be reached from here',
  ENETUNREACH: 'the network is not reachable from here',
  ECONNRESET: 'the connection was dropped',
}

/**
 * Opens (and closes) a TCP connection to the URL's host and port: proof that something listens
 * there, without sending a request a server could count as a failed sign-in. Throws an ApiError
 * (UNREACHABLE or TIMEOUT) that says what was tried and why it failed.
 */
export async function reach(url: string, timeoutMs: number): Promise<void> {
  const target = new URL(url)
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80))
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1')
  const where = `${target.hostname}:${port}`
  await new Promise<void>((resolve, reject) => {
    const socket = connect({ host, port })
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new ApiError('TIMEOUT', `No answer from ${where} within ${Math.round(timeoutMs / 1000)} s: check the URL and that the server is running.`, null))
    }, timeoutMs)
    socket.once('connect', () => {
      clearTimeout(timer)
      socket.end()
      resolve()
    })
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      const code = error.code ?? 'error'
      reject(new ApiError('UNREACHABLE', `Nothing answers at ${where}: ${reasons[code] ?? 'the connection failed'} (${code}). Check the URL and that the server is running.`, null))
    })
  })
}
