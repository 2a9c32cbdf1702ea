import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openAuditLog } from '../../electron/services/audit'
import { kioskId } from '../../electron/services/kiosk-id'
import { FRONTDESK_FILE, openLocalFrontDesk } from '../../electron/records/frontdesk/local'
import { projectRoot, tsxArgs } from '../support/process'

const entry = 'electron/services/staff/create-admin-cli.ts'
const SECRET = 'Cli-Secret-7391'

/** One run of the command line, as an installer would pipe the secret in. */
function createAdmin(flags: string[], stdin: string) {
  const [command, args] = tsxArgs(entry, flags)
  const run = spawnSync(command, args, { cwd: projectRoot, input: stdin, encoding: 'utf8', timeout: 60_000 })
  return { status: run.status, output: `${run.stdout}${run.stderr}` }
}

let root: string
afterEach(() => rmSync(root, { recursive: true, force: true }))

function dataDir(): string {
  root = mkdtempSync(join(tmpdir(), 'kiosk-create-admin-'))
  return join(root, 'data')
}

describe('npm run create-admin', () => {
  it('creates the first administrator from a secret on stdin, audited, with the secret stored nowhere in clear', async () => {
    const data = dataDir()
    const first = createAdmin(['--data', data, '--name', 'Install Admin'], `${SECRET}\nignored second line\n`)
    expect(first.output).toMatch(/^first administrator "Install Admin" created in .+\n$/)
    expect(first.status).toBe(0)

    // In the kiosk's own front desk, where the first-run screen makes one.
    const local = await openLocalFrontDesk({ dataDir: data })
    try {
      expect((await local.frontDesk.signIn('Install Admin', SECRET, null)).account).toMatchObject({ name: 'Install Admin', role: 'admin' })
      await expect(local.frontDesk.signIn('Install Admin', 'ignored second line', null)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    } finally {
      await local.close()
    }
    expect(statSync(join(data, FRONTDESK_FILE)).mode & 0o777).toBe(0o600)

    const audit = openAuditLog({ dir: data, kioskId: kioskId(data) })
    try {
      expect(audit.query({ actions: ['account-change'] }).map(({ outcome, role, account, detail }) => ({ outcome, role, account, detail }))).toEqual([
        { outcome: 'ok', role: 'system', account: 'Install Admin', detail: 'first administrator created (command line)' },
        { outcome: 'started', role: 'system', account: 'Install Admin', detail: 'first administrator created (command line)' },
      ])
      expect(audit.verify()).toMatchObject({ ok: true })
    } finally {
      audit.close()
    }

    // Neither database (with its -wal/-shm, if any are left) nor the output holds the secret.
    for (const file of readdirSync(data)) {
      const bytes = readFileSync(join(data, file))
      expect(bytes.includes(Buffer.from(SECRET, 'utf8')), file).toBe(false)
      expect(bytes.includes(Buffer.from(SECRET, 'utf16le')), file).toBe(false)
    }
    expect(first.output).not.toContain(SECRET)

    const second = createAdmin(['--data', data, '--name', 'Second Admin'], 'another-secret-1\n')
    expect(second.status).not.toBe(0)
    expect(second.output).toMatch(/already exists/)
    expect(second.output).not.toContain('another-secret-1')
    const after = await openLocalFrontDesk({ dataDir: data })
    try {
      expect((await after.frontDesk.listAccounts()).map((a) => a.name)).toEqual(['Install Admin'])
    } finally {
      await after.close()
    }
  })

  it('refuses a short secret, an empty stdin, a bad name and a missing --name, creating nothing', () => {
    const data = dataDir()
    const cases: Array<[string[], string, RegExp]> = [
      [['--data', data, '--name', 'Admin'], '12345\n', /at least 6 characters/],
      [['--data', data, '--name', 'Admin'], '', /no PIN or password on stdin/],
      [['--data', data, '--name', 'Admin'], '\n', /no PIN or password on stdin/],
      [['--data', data, '--name', '<script>'], `${SECRET}\n`, /--name: use 2–64 letters/],
      [['--data', data], `${SECRET}\n`, /--name <name> is required/],
      [['--data', data, '--name', 'Admin', '--secret', SECRET], '', /Unknown option '--secret'/],
    ]
    for (const [flags, stdin, message] of cases) {
      const run = createAdmin(flags, stdin)
      expect(run.status, flags.join(' ')).toBe(2)
      expect(run.output).toMatch(message)
      expect(run.output).toContain('usage: npm run create-admin')
      if (stdin.trim()) expect(run.output).not.toContain(stdin.trim())
    }
    // Nothing was written for any of them: no half-made data folder.
    expect(() => readdirSync(data)).toThrow()
  })
})
