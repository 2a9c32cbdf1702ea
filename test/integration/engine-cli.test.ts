import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { request } from 'undici'
import { describe, expect, it } from 'vitest'
import { basic } from '../support/engine'
import { projectRoot, startUntil, tsxArgs } from '../support/process'

const engineEntry = 'electron/engine/cli.ts'
const readyLine = /ready (http:\/\/127\.0\.0\.1:(\d+))/

// The engine's fixed command line, as other tools drive it: a real process, real HTTP.
describe('engine command line', () => {
  it('serves both APIs with the given client and tenant, stops on SIGTERM, and keeps its data across a restart', async () => {
    const data = join(mkdtempSync(join(tmpdir(), 'kiosk-engine-')), 'data')
    const flags = ['--port', '0', '--data', data, '--client-id', 'cli-client', '--client-secret', 'cli-secret', '--tenant', 'LOBBY']
    const start = (env?: NodeJS.ProcessEnv) => startUntil(...tsxArgs(engineEntry, flags), readyLine, 120_000, env)

    let engine = await start()
    let url = engine.match[1]!
    expect(Number(engine.match[2])).toBeGreaterThan(0)
    const call = async (method: string, path: string, token: string, body?: unknown) => {
      const reply = await request(`${url}${path}`, {
        method: method as 'GET',
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      })
      return { status: reply.statusCode, body: (await reply.body.json()) as any }
    }
    const token = async () => {
      const reply = await request(`${url}/v2/oauth2/oauth/token?scope=SCOPE_TENANT_ADMIN&grant_type=client_credentials`, {
        method: 'POST',
        headers: { authorization: basic('cli-client', 'cli-secret'), 'content-type': 'application/x-www-form-urlencoded' },
      })
      expect(reply.statusCode).toBe(200)
      return ((await reply.body.json()) as { access_token: string }).access_token
    }

    let bearer = await token()
    expect((await call('GET', '/v2/gmiserver/tenant/LOBBY', bearer)).body).toMatchObject({ code: 'LOBBY' })
    const types = (await call('GET', '/bioengine/template-types', bearer)).body.templateTypes
    expect(types.length).toBeGreaterThan(0)
    const templateType = types[0].templateType as string
    const person = (await call('POST', '/v2/gmiserver/tenant/LOBBY/person', bearer, { userId: 'restart@example.com' })).body
    const face = (await sharp(readFileSync(join(projectRoot, 'test/fixtures/generated/face.png'))).jpeg().toBuffer()).toString('base64')
    const enrolled = await call('POST', `/bioengine/persons/${person.uuid}/biometrics`, bearer, { templateType, templateContext: 'desk-1', samples: [face] })
    expect(enrolled.status).toBe(201)

    expect(await engine.stop()).toBe(0)

    engine = await start()
    url = engine.match[1]!
    bearer = await token()
    expect((await call('GET', `/v2/gmiserver/person/${person.uuid}`, bearer)).body).toMatchObject({ userId: 'restart@example.com' })
    expect((await call('GET', `/bioengine/persons/${person.uuid}/biometrics`, bearer)).body.biometricInfos).toEqual([
      expect.objectContaining({ templateType, templateContext: 'desk-1' }),
    ])
    // The identify cache was rebuilt from the database at start-up.
    const found = await call('POST', '/bioengine/identify', bearer, { identifyInputs: [{ templateType, sample: face }] })
    expect(found.body.allIdentifyResults[0].identifyResults[0].identifyMatchResults[0]).toMatchObject({ personId: person.uuid, personUUID: person.uuid })
    expect(await engine.stop()).toBe(0)

    // Under another template key (a data folder moved between installs) the engine still starts;
    // the templates it cannot decrypt are left out, and persons are untouched.
    engine = await start({ ...process.env, ENGINE_TEMPLATE_KEY: Buffer.alloc(32, 9).toString('base64') })
    url = engine.match[1]!
    bearer = await token()
    const again = await call('POST', '/bioengine/identify', bearer, { identifyInputs: [{ templateType, sample: face }] })
    expect(again.body.allIdentifyResults[0].identifyResults[0].identifyMatchResults).toEqual([])
    expect((await call('POST', `/bioengine/persons/${person.uuid}/verify`, bearer, { verifyInputs: [{ templateType, sample: face }] })).body).toEqual({ allMatchResults: [{ matchResults: [] }] })
    expect((await call('GET', `/v2/gmiserver/person/${person.uuid}`, bearer)).status).toBe(200)
    expect(readFileSync(join(data, 'logs', 'engine.log'), 'utf8')).toContain('1 template(s) could not be decrypted')
    expect(await engine.stop()).toBe(0)
  })

  it('refuses bad flags with the usage line and exit code 2', () => {
    for (const flags of [['--port', 'eighty', '--data', '/tmp/x'], ['--port', '0'], ['--port', '0', '--data', '/tmp/x', '--client-id', 'only-id'], ['--bogus']]) {
      const [command, args] = tsxArgs(engineEntry, flags)
      const run = spawnSync(command, args, { encoding: 'utf8' })
      expect(run.status, flags.join(' ')).toBe(2)
      expect(run.stderr).toContain('usage: npm run engine -- --port <n> --data <dir>')
    }
  })

  it('refuses a --database URL that carries a password (it would be in the process list), and a URL that is not postgres://', () => {
    for (const [url, said] of [
      ['postgres://kiosk:hunter2@127.0.0.1:5432/kiosk', /must not carry a password/],
      ['postgres://kiosk@127.0.0.1:5432/kiosk?password=hunter2', /must not carry a password/],
      ['mysql://kiosk@127.0.0.1/kiosk', /postgres:\/\/ URL/],
    ] as const) {
      const [command, args] = tsxArgs(engineEntry, ['--port', '0', '--data', '/tmp/x', '--database', url])
      const run = spawnSync(command, args, { encoding: 'utf8' })
      expect(run.status, url).toBe(2)
      expect(run.stderr).toMatch(said)
      expect(run.stderr).not.toContain('hunter2')
    }
    // A site's engine never makes up a template key of its own: the others could not read what it seals.
    const [command, args] = tsxArgs(engineEntry, ['--port', '0', '--data', '/tmp/x', '--database', 'postgres://kiosk@127.0.0.1:5432/kiosk'])
    const run = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, ENGINE_TEMPLATE_KEY: '' } })
    expect(run.status).toBe(2)
    expect(run.stderr).toMatch(/needs ENGINE_TEMPLATE_KEY/)
  })
})
