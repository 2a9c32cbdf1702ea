import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { Writable } from 'node:stream'
import { parseArgs } from 'node:util'
import { openLocalFrontDesk } from '../../records/frontdesk/local'
import { KioskError } from '../../shared/errors'
import { firstAdminInput } from '../../shared/staff'
import { openAuditLog, type AuditLog } from '../audit'
import { audited } from '../audited-handlers'
import { defaultDataDir } from '../data-dir'
import { kioskId } from '../kiosk-id'

/**
 * npm run create-admin -- --name NAME [--data DIR] < secret: the first administrator of the kiosk's
 * own front desk (frontdesk.db, as the first-run screen makes it) without a screen, for unattended
 * installs and tests. The secret comes from stdin only: an argument or an
 * environment variable would show in the process list, shell history or a CI log. Audited like
 * the first-run screen, as the system acting from the command line.
 */

const usage = 'usage: npm run create-admin -- --name <name> [--data <dir>]   (the PIN or password is the first line of stdin)'

function parseFlags(argv: string[]): { name: string; data: string } {
  let values
  try {
    values = parseArgs({ args: argv, options: { name: { type: 'string' }, data: { type: 'string' } }, strict: true, allowPositionals: false }).values
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${usage}`)
  }
  if (!values.name) throw new Error(`--name <name> is required\n${usage}`)
  return { name: values.name, data: resolve(values.data || defaultDataDir()) }
}

/** The first line of stdin, without its line ending; null when stdin is empty. */
async function readSecretLine(): Promise<string | null> {
  const tty = process.stdin.isTTY === true
  if (tty) process.stderr.write('PIN or password (not shown): ')
  // On a terminal readline does the line editing; what it would echo goes nowhere.
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() })
  const lines = createInterface({ input: process.stdin, output: tty ? silent : undefined, terminal: tty, crlfDelay: Infinity })
  lines.on('SIGINT', () => process.exit(130))
  try {
    for await (const line of lines) return line
    return null
  } finally {
    lines.close()
    if (tty) process.stderr.write('\n')
  }
}

async function main(): Promise<number> {
  let flags
  try {
    flags = parseFlags(process.argv.slice(2))
  } catch (error) {
    console.error((error as Error).message)
    return 2
  }
  const secret = await readSecretLine()
  if (secret === null || secret === '') {
    console.error(`no PIN or password on stdin: pipe it in as the first line\n${usage}`)
    return 2
  }
  const input = firstAdminInput.safeParse({ name: flags.name, secret })
  if (!input.success) {
    // zod's messages name the rule, never the value, so the secret cannot leak here.
    const reasons = input.error.issues.map((issue) => `${issue.path[0] === 'secret' ? 'PIN or password' : '--name'}: ${issue.message}`)
    console.error(`${reasons.join('\n')}\n${usage}`)
    return 2
  }

  mkdirSync(flags.data, { recursive: true, mode: 0o700 })
  let auditLog: AuditLog | null = null
  const audit = () => (auditLog ??= openAuditLog({ dir: flags.data, kioskId: kioskId(flags.data) }))
  const local = await openLocalFrontDesk({ dataDir: flags.data })
  try {
    const { name } = input.data
    const detail = 'first administrator created (command line)'
    await audited(audit, (line) => console.error(line), { role: 'system', account: null }, { action: 'account-change', account: name, detail }, async () => {
      const made = await local.frontDesk.createFirstAdmin(name, input.data.secret, kioskId(flags.data))
      // Nobody sits at a screen here: the session that comes with the first administrator ends at once.
      await local.frontDesk.signOut(made.session)
    })
    console.log(`first administrator "${name}" created in ${flags.data}`)
    return 0
  } catch (error) {
    if (error instanceof KioskError && error.code === 'FORBIDDEN') console.error(`refused: an administrator already exists in ${flags.data}; sign in with it instead`)
    else console.error(`the administrator was not created: ${error instanceof Error ? error.message : String(error)}`)
    return 1
  } finally {
    await local.close()
    ;(auditLog as AuditLog | null)?.close()
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`create-admin failed: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  },
)
