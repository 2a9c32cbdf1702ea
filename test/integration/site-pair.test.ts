import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFrontDesk } from '../../electron/records/frontdesk/create-front-desk'
import { frontDeskMigrations } from '../../electron/records/frontdesk/migrations'
import { migrate } from '../../electron/records/sql/migrate'
import { openPostgres } from '../../electron/records/sql/postgres'
import type { Database } from '../../electron/records/sql/types'
import { PAIRING_CODE_TTL_MS } from '../../electron/shared/frontdesk-api'
import { parseSiteArgs, parseSiteCommand } from '../../electron/site/args'
import { freeLoopbackPort } from '../../electron/site/processes'
import { projectRoot, tsxArgs } from '../support/process'
import { startTestPostgres, type TestPostgres } from '../support/postgres'
import { SITE_CLI } from '../support/site'

/**
 * `npm run site -- pair` and `rotate-invite-key` against a site's database: the private cluster a site keeps in
 * DATA/postgres (a test cluster, laid out as the site's, started here rather than a whole site),
 * or an external one named by --database.
 */

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

function runPair(args: string[], env: NodeJS.ProcessEnv, subcommand = 'pair'): Promise<Run> {
  const [command, argv] = tsxArgs(SITE_CLI, [subcommand, ...args])
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
    child.once('error', reject)
    child.once('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

/** The environment without a database password: the command must find the site's itself. */
function withoutPassword(): NodeJS.ProcessEnv {
  const env = { ...process.env }
  delete env.PGPASSFILE
  delete env.PGPASSWORD
  return env
}

const LINE = /^pairing code ([2-9A-HJKMNP-Z]{8}) expires (\S+)\n$/

describe('npm run site -- pair', () => {
  let postgres: TestPostgres
  let db: Database
  const folders: string[] = []

  beforeAll(async () => {
    postgres = await startTestPostgres()
    process.env.PGPASSFILE = postgres.passfile
    db = await openPostgres({ url: postgres.url, maxConnections: 2 })
    await migrate(db, frontDeskMigrations)
  })
  afterAll(async () => {
    await db?.close()
    await postgres?.close()
    for (const folder of folders) rmSync(folder, { recursive: true, force: true })
  })

  it("prints a one-time code, made in the site's database found in DATA, valid 15 minutes", async () => {
    const before = Date.now()
    // The test cluster lives in FOLDER/postgres, as a site's does in DATA/postgres.
    const run = await runPair(['--data', postgres.folder], withoutPassword())
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const [, code, expires] = LINE.exec(run.stdout) ?? []
    expect(code, run.stdout).toBeDefined()
    expect(new Date(expires!).toISOString()).toBe(expires)
    expect(Date.parse(expires!) - before).toBeGreaterThan(PAIRING_CODE_TTL_MS - 60_000)
    expect(Date.parse(expires!) - Date.now()).toBeLessThanOrEqual(PAIRING_CODE_TTL_MS)

    const frontDesk = createFrontDesk(db)
    const kiosk = await frontDesk.redeemPairingCode(code!, 'From the command line')
    expect(kiosk.name).toBe('From the command line')
    await expect(frontDesk.redeemPairingCode(code!, 'Again')).rejects.toMatchObject({ code: 'REJECTED' })
  })

  it('makes a new code on each run, and takes an external database with --database and its PGPASSFILE', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'kiosk-pair-'))
    folders.push(empty)
    const runs = await Promise.all([
      runPair(['--data', postgres.folder], withoutPassword()),
      runPair(['--data', empty, '--database', postgres.url], { ...withoutPassword(), PGPASSFILE: postgres.passfile }),
    ])
    for (const run of runs) expect(run.code, run.stderr).toBe(0)
    const codes = runs.map((run) => LINE.exec(run.stdout)?.[1])
    expect(codes[0]).not.toBe(codes[1])
    const frontDesk = createFrontDesk(db)
    for (const code of codes) await expect(frontDesk.redeemPairingCode(code!, 'Kiosk')).resolves.toMatchObject({ name: 'Kiosk' })
  })

  it('says why, on stderr, and prints no code when there is no site database to reach', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'kiosk-pair-'))
    folders.push(empty)
    const none = await runPair(['--data', empty], withoutPassword())
    expect(none.code).toBe(1)
    expect(none.stdout).toBe('')
    expect(none.stderr).toMatch(/holds no site database/)

    // A site that is not running: its cluster's folder, but nothing on its port.
    const stopped = mkdtempSync(join(tmpdir(), 'kiosk-pair-'))
    folders.push(stopped)
    mkdirSync(join(stopped, 'postgres'))
    writeFileSync(join(stopped, 'postgres', 'port'), `${await freeLoopbackPort()}\n`)
    writeFileSync(join(stopped, 'postgres', '.pgpass'), '127.0.0.1:*:kiosk:kiosk:not-a-real-password\n', { mode: 0o600 })
    const down = await runPair(['--data', stopped], withoutPassword())
    expect(down.code).toBe(1)
    expect(down.stdout).toBe('')
    expect(down.stderr).toMatch(/not running/)

    const usage = await runPair([], withoutPassword())
    expect(usage.code).toBe(2)
    expect(usage.stderr).toMatch(/--data <dir> is required/)
    const password = await runPair(['--data', empty, '--database', 'postgres://kiosk:secret@127.0.0.1:5432/kiosk'], withoutPassword())
    expect(password.code).toBe(2)
    expect(password.stderr).not.toContain('secret@')
  })

  it('rotates the invitation key: new codes name the new key, a code made before stays good', async () => {
    const frontDesk = createFrontDesk(db)
    const day = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
    const request = { hostId: null, date: day, expiresAt: Date.now() + 86_400_000, createdBy: 'test' }
    const before = await frontDesk.createInvite({ ...request, email: 'before@rotate.example' })
    const run = await runPair(['--data', postgres.folder], withoutPassword(), 'rotate-invite-key')
    expect(run.code, run.stderr).toBe(0)
    const [, kid] = /^invite key ([a-z0-9]+)\n$/.exec(run.stdout) ?? []
    expect(kid, run.stdout).toBeDefined()
    const after = await frontDesk.createInvite({ ...request, email: 'after@rotate.example' })
    expect(after.token.split('.')[1]).toBe(kid)
    expect(before.token.split('.')[1]).not.toBe(kid)
    expect(await frontDesk.checkInvite(before.token)).toMatchObject({ status: 'valid', email: 'before@rotate.example' })
    expect(await frontDesk.checkInvite(after.token)).toMatchObject({ status: 'valid', email: 'after@rotate.example' })
  })

  it('leaves `npm run site` without a subcommand as it was', () => {
    const argv = ['--engines', '2', '--port', '8080', '--data', 'site-data', '--tenant', 'LOBBY']
    expect(parseSiteCommand(argv, {})).toEqual({ command: 'run', args: parseSiteArgs(argv, {}) })
    expect(() => parseSiteCommand(['--data', 'x'], {})).toThrow(/--engines/)
    expect(parseSiteCommand(['pair', '--data', 'site-data'], {})).toMatchObject({ command: 'pair', args: { database: undefined } })
  })
})
