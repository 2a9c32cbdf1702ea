import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { describe, expect, it } from 'vitest'
import { startUntil, tsxArgs } from '../support/process'

const engineEntry = 'electron/engine/cli.ts'

describe('engine command line', () => {
  it('listens on a free loopback port, prints its ready line, and stops cleanly on SIGTERM', async () => {
    const data = join(mkdtempSync(join(tmpdir(), 'kiosk-engine-')), 'data')
    const [command, args] = tsxArgs(engineEntry, ['--port', '0', '--data', data])
    const engine = await startUntil(command, args, /ready (http:\/\/127\.0\.0\.1:(\d+))/)
    expect(Number(engine.match[2])).toBeGreaterThan(0)
    expect(existsSync(data)).toBe(true)

    const reply = await request(`${engine.match[1]}/bioengine/nothing-here`)
    expect(reply.statusCode).toBe(404)
    expect(await reply.body.json()).toMatchObject({ code: 404, message: expect.stringContaining('/bioengine/nothing-here') })

    expect(await engine.stop()).toBe(0)
  })

  it('refuses bad flags with the usage line and exit code 2', () => {
    const [command, args] = tsxArgs(engineEntry, ['--port', 'eighty'])
    const run = spawnSync(command, args, { encoding: 'utf8' })
    expect(run.status).toBe(2)
    expect(run.stderr).toContain('usage: npm run engine -- --port <n> --data <dir>')
  })
})
