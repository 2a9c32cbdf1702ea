import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { defaultSettings, settingsSchema, type KioskSettings } from '../../electron/shared/settings'
import { createSettingsStore, SETTINGS_FILE } from '../../electron/services/settings-store'
import { rejection } from '../support/rejection'

// Real files in a throwaway data folder per test.
const dirs: string[] = []
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

function setup(now = () => new Date('2031-02-03T04:05:06.789Z')) {
  const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-settings-'))
  dirs.push(dataDir)
  const lines: string[] = []
  const store = createSettingsStore({ dataDir, log: (line) => lines.push(line), now })
  const file = join(dataDir, SETTINGS_FILE)
  return { dataDir, store, lines, file, text: () => readFileSync(file, 'utf8') }
}


const remote = { mode: 'remote', personServerUrl: 'https://persons.example.test', bioEngineUrl: 'https://bio.example.test/bioengine' } as const

describe('settings schema', () => {
  it('has the documented defaults', () => {
    expect(settingsSchema.parse({})).toEqual({
      mode: 'embedded',
      personServerUrl: '',
      bioEngineUrl: '',
      tenantCode: 'KIOSK',
      appCode: 'KIOSK',
      templateType: 'Face:HumanFaceRes',
      verifyThresholdOverride: null,
      identifyThresholdOverride: null,
      identifyMaxResults: 5,
      idleTimeoutSeconds: 90,
      auditRetentionDays: 365,
      visitorRetentionDays: null,
      bioEngineAuth: 'person-server-token',
      basicAuthEncoding: 'form-urlencoded',
      connectTimeoutSeconds: 5,
      requestTimeoutSeconds: 20,
      livenessStepSeconds: 8,
      offlineReplica: false,
      offlineReplicaDays: 30,
      offlineReplicaMaxPersons: 1000,
      organisationName: 'Identity Kiosk',
      welcomeLine: '',
      accentColour: '#0b5cad',
      kioskName: '',
      offlineSignInHours: 12,
    })
    expect(settingsSchema.parse({})).toEqual(defaultSettings)
  })

  it('ignores the URLs in embedded mode but still checks their shape', () => {
    expect(settingsSchema.safeParse({ mode: 'embedded' }).success).toBe(true)
    expect(settingsSchema.safeParse({ mode: 'embedded', personServerUrl: 'http://10.0.0.5:8080' }).success).toBe(true)
    expect(settingsSchema.safeParse({ mode: 'embedded', personServerUrl: 'not a url' }).success).toBe(false)
  })
})

describe('settings store (real files)', () => {
  it('gives the defaults when there is no file, without creating one', async () => {
    const { store, dataDir, lines } = setup()
    expect(await store.load()).toEqual(defaultSettings)
    expect(readdirSync(dataDir)).toEqual([])
    expect(lines).toEqual([])
  })

  it('gives the defaults when the data folder does not exist yet, and creates it on save', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'kiosk-settings-'))
    dirs.push(parent)
    const dataDir = join(parent, 'not', 'yet')
    const store = createSettingsStore({ dataDir, log: () => {} })
    expect(await store.load()).toEqual(defaultSettings)
    await store.save({ tenantCode: 'LOBBY' })
    expect((statSync(dataDir).mode & 0o777).toString(8)).toBe('700')
    expect((await store.load()).tenantCode).toBe('LOBBY')
  })

  it('saves and loads every field, and a new store (a restart) reads the same', async () => {
    const { store, dataDir, text } = setup()
    const settings: KioskSettings = {
      ...remote,
      tenantCode: 'LOBBY-2',
      appCode: 'front.desk',
      templateType: 'Face:FaceApiResNet',
      verifyThresholdOverride: 0.85,
      visitorRetentionDays: 30,
      identifyThresholdOverride: 60,
      identifyMaxResults: 10,
      idleTimeoutSeconds: 300,
      auditRetentionDays: 90,
      bioEngineAuth: 'stored-jwt',
      basicAuthEncoding: 'plain',
      connectTimeoutSeconds: 3,
      requestTimeoutSeconds: 45,
      livenessStepSeconds: 12,
      offlineReplica: true,
      offlineReplicaDays: 7,
      offlineReplicaMaxPersons: 250,
      organisationName: 'City Library',
      welcomeLine: 'Welcome to the lending desk.',
      accentColour: '#1e5a2b',
      kioskName: 'Lending desk',
      offlineSignInHours: 0,
    }
    expect(await store.save(settings)).toEqual(settings)
    expect(await store.load()).toEqual(settings)
    expect(JSON.parse(text())).toEqual(settings)
    expect(await createSettingsStore({ dataDir }).load()).toEqual(settings)
    // Missing fields take their defaults on save.
    expect(await store.save({ tenantCode: 'OTHER' })).toEqual({ ...defaultSettings, tenantCode: 'OTHER' })
  })

  it('updates only the given fields', async () => {
    const { store } = setup()
    await store.save({ ...remote, tenantCode: 'LOBBY' })
    expect(await store.update({ idleTimeoutSeconds: 60 })).toEqual({ ...defaultSettings, ...remote, tenantCode: 'LOBBY', idleTimeoutSeconds: 60 })
    expect(await store.update({ mode: 'embedded' })).toMatchObject({ mode: 'embedded', personServerUrl: remote.personServerUrl })
    expect((await store.load()).idleTimeoutSeconds).toBe(60)
  })

  it('applies concurrent updates one after another, losing none', async () => {
    const { store } = setup()
    await Promise.all([
      store.update({ tenantCode: 'A' }),
      store.update({ appCode: 'B' }),
      store.update({ identifyMaxResults: 7 }),
      store.update({ idleTimeoutSeconds: 120 }),
      store.update({ verifyThresholdOverride: 40 }),
    ])
    expect(await store.load()).toMatchObject({ tenantCode: 'A', appCode: 'B', identifyMaxResults: 7, idleTimeoutSeconds: 120, verifyThresholdOverride: 40 })
  })

  it('rejects invalid settings with INVALID_INPUT naming the field, and keeps the saved file as it was', async () => {
    const { store, text } = setup()
    await store.save({ tenantCode: 'LOBBY' })
    const before = text()
    const cases: Array<[unknown, RegExp[]]> = [
      [{ mode: 'remote' }, [/is required in remote mode\s+→ at personServerUrl/, /is required in remote mode\s+→ at bioEngineUrl/]],
      [{ mode: 'remote', personServerUrl: remote.personServerUrl }, [/→ at bioEngineUrl/]],
      // On a site the servers are the site's: its address is needed as in remote mode.
      [{ mode: 'site' }, [/is required in site mode\s+→ at personServerUrl/, /is required in site mode\s+→ at bioEngineUrl/]],
      [{ kioskName: 'Lobby\nWest' }, [/one line without control characters\s+→ at kioskName/]],
      [{ kioskName: 'x'.repeat(65) }, [/at most 64 characters\s+→ at kioskName/]],
      [{ verifyThresholdOverride: 100.5 }, [/must be from 0 to 100\s+→ at verifyThresholdOverride/]],
      [{ identifyThresholdOverride: -1 }, [/must be from 0 to 100\s+→ at identifyThresholdOverride/]],
      [{ connectTimeoutSeconds: 0 }, [/must be from 1 to 60\s+→ at connectTimeoutSeconds/]],
      [{ requestTimeoutSeconds: 301 }, [/must be from 2 to 300\s+→ at requestTimeoutSeconds/]],
      [{ livenessStepSeconds: 2 }, [/must be from 3 to 30\s+→ at livenessStepSeconds/]],
      [{ basicAuthEncoding: 'base64' }, [/→ at basicAuthEncoding/]],
      [{ auditRetentionDays: 7 }, [/must be from 30 to 3650\s+→ at auditRetentionDays/]],
      [{ identifyMaxResults: 0 }, [/must be from 1 to 100\s+→ at identifyMaxResults/]],
      [{ identifyMaxResults: 2.5 }, [/whole number\s+→ at identifyMaxResults/]],
      [{ idleTimeoutSeconds: 14 }, [/must be from 15 to 3600\s+→ at idleTimeoutSeconds/]],
      [{ idleTimeoutSeconds: 3601 }, [/must be from 15 to 3600/]],
      [{ offlineSignInHours: -1 }, [/must be from 0 to 168\s+→ at offlineSignInHours/]],
      [{ offlineSignInHours: 169 }, [/must be from 0 to 168\s+→ at offlineSignInHours/]],
      [{ offlineSignInHours: 1.5 }, [/whole number\s+→ at offlineSignInHours/]],
      [{ mode: 'cloud' }, [/→ at mode/]],
      [{ bioEngineAuth: 'none' }, [/→ at bioEngineAuth/]],
      [{ tenantCode: '../etc' }, [/→ at tenantCode/]],
      [{ templateType: 'HumanFaceRes' }, [/BioType:Plugin/]],
      [{ ...remote, personServerUrl: 'ftp://persons.example.test' }, [/http:\/\/ or https:\/\/\s+.*\s*→ at personServerUrl/]],
      [{ ...remote, bioEngineUrl: 'https://bio.example.test/?token=abc' }, [/→ at bioEngineUrl/]],
      [{ colour: 'blue' }, [/Unrecognized key: "colour"/]],
    ]
    for (const [input, reasons] of cases) {
      const error = await rejection(store.save(input as never))
      expect(error.code).toBe('INVALID_INPUT')
      for (const reason of reasons) expect(error.message).toMatch(reason)
      const updateError = await rejection(store.update(input as never))
      expect(updateError.code).toBe('INVALID_INPUT')
    }
    // A valid-looking patch whose result is invalid is refused too.
    expect((await rejection(store.update({ mode: 'remote' }))).message).toMatch(/required in remote mode/)
    expect(text()).toBe(before)
  })

  it('sets a corrupt file aside, says so in one line, and carries on with the defaults', async () => {
    const { store, dataDir, lines, file } = setup()
    const garbage = '{"tenantCode": "LOBBY", "secretish": "do-not-log-me"'
    writeFileSync(file, garbage)
    expect(await store.load()).toEqual(defaultSettings)
    const aside = 'settings.json.corrupt-2031-02-03T04-05-06-789Z'
    expect(readdirSync(dataDir)).toEqual([aside])
    expect(readFileSync(join(dataDir, aside), 'utf8')).toBe(garbage)
    expect(lines).toEqual([`kiosk: settings: ${file} is not valid JSON; kept it as ${join(dataDir, aside)} and using the default settings`])
    expect(lines.join('\n')).not.toContain('do-not-log-me')
    // Saving afterwards writes a fresh file and leaves the set-aside one alone.
    await store.save({ tenantCode: 'NEW' })
    expect(readdirSync(dataDir).sort()).toEqual([SETTINGS_FILE, aside])
  })

  it('sets an invalid file aside too, naming the fields but not their values', async () => {
    const { store, dataDir, lines, file } = setup()
    writeFileSync(file, JSON.stringify({ ...remote, personServerUrl: 'https://user:p4ssw0rd@persons.example.test', verifyThresholdOverride: 777.25 }))
    expect(await store.load()).toEqual(defaultSettings)
    expect(readdirSync(dataDir)).toEqual(['settings.json.corrupt-2031-02-03T04-05-06-789Z'])
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/is not valid \(personServerUrl: must be an http:\/\/ .*; verifyThresholdOverride: must be from 0 to 100\); kept it as .*corrupt-/)
    expect(lines[0]).not.toContain('p4ssw0rd')
    expect(lines[0]).not.toContain('777.25')

    // Not an object at all.
    const contents = ['[]', '"text"', 'null', '']
    for (const [i, content] of contents.entries()) {
      writeFileSync(file, content)
      expect(await createSettingsStore({ dataDir, log: () => {}, now: () => new Date(Date.UTC(2032, 0, 1, 0, 0, i)) }).load()).toEqual(defaultSettings)
    }
    expect(readdirSync(dataDir)).toHaveLength(1 + contents.length)
    expect(readdirSync(dataDir)).not.toContain(SETTINGS_FILE)
  })

  it('keeps a saved accent that no longer passes the contrast rule out, and every other setting in', async () => {
    // The rule can tighten with a new version (a new place using the accent): that is no reason to lose the file.
    const { store, file, lines } = setup()
    writeFileSync(file, JSON.stringify({ tenantCode: 'LOBBY', accentColour: '#ffcc00' }))
    expect(await store.load()).toEqual({ ...defaultSettings, tenantCode: 'LOBBY' })
    expect(lines).toEqual([])
  })

  it('reads a file from a newer version, dropping fields it does not know', async () => {
    const { store, lines, file, text } = setup()
    writeFileSync(file, JSON.stringify({ tenantCode: 'LOBBY', futureOption: true }))
    expect(await store.load()).toEqual({ ...defaultSettings, tenantCode: 'LOBBY' })
    expect(lines).toEqual([])
    await store.update({ appCode: 'DESK' })
    expect(JSON.parse(text())).toEqual({ ...defaultSettings, tenantCode: 'LOBBY', appCode: 'DESK' })
  })

  it('writes atomically: the file is private (0600) and no temporary file is left behind', async () => {
    const { store, dataDir, file } = setup()
    await store.save({ tenantCode: 'A' })
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600')
    // A file someone made world-readable is replaced by a private one.
    chmodSync(file, 0o644)
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.update({ identifyMaxResults: i + 1 })))
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600')
    expect(readdirSync(dataDir)).toEqual([SETTINGS_FILE])
    expect(settingsSchema.parse(JSON.parse(readFileSync(file, 'utf8')))).toBeTruthy()
  })

  it('never crashes on a data folder it cannot use: defaults on load, INTERNAL on save, no temp file left', async () => {
    const { store, dataDir, file, lines } = setup()
    mkdirSync(file) // settings.json is a folder: unreadable as a file, and cannot be renamed over
    expect(await store.load()).toEqual(defaultSettings)
    expect(lines[0]).toMatch(/cannot read .*settings\.json \(EISDIR\); using the default settings/)
    const error = await rejection(store.save({ tenantCode: 'X' }))
    expect(error.code).toBe('INTERNAL')
    expect(error.message).toMatch(/could not save its settings \(EISDIR\)/)
    expect(readdirSync(dataDir)).toEqual([SETTINGS_FILE])
  })

  it('never writes a secret: no field for one, and nothing smuggled in through a URL or an extra field', async () => {
    const { store, text } = setup()
    const secrets = { clientSecret: 'cl13nt-s3cr3t-value', bioengineJwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl' }
    await store.save(remote)
    await rejection(store.save({ ...remote, ...secrets } as never))
    await rejection(store.update({ clientSecret: secrets.clientSecret } as never))
    await rejection(store.update({ personServerUrl: `https://kiosk:${secrets.clientSecret}@persons.example.test` }))
    await rejection(store.update({ bioEngineUrl: `https://bio.example.test/?jwt=${secrets.bioengineJwt}` }))
    await rejection(store.update({ bioEngineUrl: `https://bio.example.test/#${secrets.bioengineJwt}` }))
    for (const secret of Object.values(secrets)) expect(text()).not.toContain(secret)
    expect(Object.keys(JSON.parse(text())).sort()).toEqual(Object.keys(defaultSettings).sort())
  })
})
