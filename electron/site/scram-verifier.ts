import { createHash, createHmac, pbkdf2, randomBytes } from 'node:crypto'
import { promisify } from 'node:util'

const pbkdf2Async = promisify(pbkdf2)

/**
 * PostgreSQL's stored form of a SCRAM-SHA-256 password (RFC 5802/7677), as `pg_authid` keeps it.
 * `ALTER ROLE … PASSWORD '<verifier>'` then sets the password without the password itself ever
 * reaching the server: a failed statement that PostgreSQL logs shows only this hash.
 * The password must be plain ASCII (SASLprep leaves it as is): callers make it from random bytes.
 */
export async function scramSha256Verifier(password: string, iterations = 4096, salt = randomBytes(16)): Promise<string> {
  if (!/^[\x21-\x7e]+$/.test(password)) throw new Error('the password must be printable ASCII')
  const salted = await pbkdf2Async(password, salt, iterations, 32, 'sha256')
  const clientKey = createHmac('sha256', salted).update('Client Key').digest()
  const storedKey = createHash('sha256').update(clientKey).digest()
  const serverKey = createHmac('sha256', salted).update('Server Key').digest()
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`
}
