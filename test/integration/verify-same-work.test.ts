import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFacePlugins } from '../../electron/engine/face'
import type { FacePlugin } from '../../electron/engine/face/types'
import type { Backend } from '../../electron/services/backend'
import { createReplica } from '../../electron/services/replica/replica'
import { enrollVisitor } from '../../electron/services/workflows/enroll-visitor'
import { verifyVisitor } from '../../electron/services/workflows/verify-visitor'
import { defaultSettings } from '../../electron/shared/settings'
import { testBackend } from '../support/backend'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { projectRoot } from '../support/process'

const sample = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name)).toString('base64')

/** Every client call the kiosk makes through `backend`, by name, in order. */
function recorded(backend: Backend): { backend: Backend; calls: string[] } {
  const calls: string[] = []
  const spy = <T extends object>(side: string, target: T): T =>
    new Proxy(target, {
      get(obj, key, receiver) {
        const value = Reflect.get(obj, key, receiver)
        if (typeof value !== 'function') return value
        return (...args: unknown[]) => {
          calls.push(`${side}.${String(key)}`)
          return value.apply(obj, args)
        }
      },
    })
  return { backend: { ...backend, persons: spy('persons', backend.persons), bio: spy('bio', backend.bio) }, calls }
}

/** The engine's face plugins, counting the images they read. */
function counted(plugins: FacePlugin[]): { plugins: FacePlugin[]; faces: () => number } {
  let faces = 0
  const wrapped = plugins.map(
    (plugin) =>
      new Proxy(plugin, {
        get(obj, key, receiver) {
          const value = Reflect.get(obj, key, receiver)
          if (key !== 'analyze' || typeof value !== 'function') return typeof value === 'function' ? value.bind(obj) : value
          return (...args: unknown[]) => {
            faces++
            return value.apply(obj, args)
          }
        },
      }),
  )
  return { plugins: wrapped, faces: () => faces }
}

// A visitor's Verify of an unknown e-mail must do what a known one's does, or its timing tells who is enrolled.
describe('a visitor’s Verify does the same work whether the e-mail is known or not', () => {
  let t: TestEngine
  let plain: ReturnType<typeof testBackend>
  let faces: () => number
  beforeAll(async () => {
    const engine = counted(await loadFacePlugins({ threads: 2, log: () => {} }))
    faces = engine.faces
    t = await startTestEngine(engine.plugins)
    plain = testBackend(t.url)
    await enrollVisitor(plain, { userId: 'ada@same.example', samples: [sample('person-a1.jpg')], templateType: plain.templateType, templateContext: 'c1' })
    await t.call('POST', `/v2/gmiserver/tenant/${TEST_TENANT}/person`, { userId: 'bare@same.example' })
  })
  afterAll(async () => {
    await plain?.close()
    await t?.close()
  })

  /** What one verification cost: the client calls made and the faces the engine read. */
  async function work(run: (backend: Backend) => Promise<unknown>) {
    const { backend, calls } = recorded(plain)
    const before = faces()
    const outcome = await run(backend).then(
      (result) => result,
      (error: { code?: string }) => ({ error: error.code }),
    )
    return { calls, faces: faces() - before, outcome }
  }
  const verify = (userId: string, photo: string) => (backend: Backend) => verifyVisitor(backend, { userId, sample: sample(photo) })

  it('makes the same calls and reads one face for a known e-mail, an unknown one and one without a face', async () => {
    await work(verify('ada@same.example', 'person-d.jpg')) // the threshold's template info is fetched once, then cached
    const known = await work(verify('ada@same.example', 'person-d.jpg'))
    const unknown = await work(verify('nobody@same.example', 'person-d.jpg'))
    const bare = await work(verify('bare@same.example', 'person-d.jpg'))
    expect(known.outcome).toMatchObject({ decision: 'no-match' })
    expect(unknown.outcome).toMatchObject({ decision: 'not-found', person: null })
    expect(bare.outcome).toMatchObject({ decision: 'not-enrolled' })
    expect(known.calls).toEqual(['persons.findPersonByUserId', 'bio.verify'])
    expect(unknown.calls).toEqual(known.calls)
    expect(bare.calls).toEqual(known.calls)
    expect([known.faces, unknown.faces, bare.faces]).toEqual([1, 1, 1])
  })

  it('fails a faceless sample the same way for a known and an unknown e-mail', async () => {
    const known = await work(verify('ada@same.example', 'no-face.jpg'))
    const unknown = await work(verify('nobody@same.example', 'no-face.jpg'))
    expect(known.outcome).toEqual({ error: 'NO_FACE' })
    expect(unknown.outcome).toEqual(known.outcome)
    expect(unknown.calls).toEqual(known.calls)
  })

  it('does the same offline, on the replica', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiosk-replica-'))
    try {
      const unused = () => Promise.reject(new Error('not used by a verification'))
      const on = (backend: Backend) =>
        createReplica({
          dir,
          settings: async () => ({ ...defaultSettings, mode: 'remote', offlineReplica: true }),
          local: async () => backend,
          remote: unused,
          pending: unused,
          remove: unused,
          erase: unused,
          now: Date.now,
          log: () => {},
        })
      const offline = (userId: string) => (backend: Backend) => on(backend).verify({ userId, sample: sample('person-d.jpg') })
      const known = await work(offline('ada@same.example'))
      const unknown = await work(offline('nobody@same.example'))
      expect(known.outcome).toMatchObject({ decision: 'no-match', offline: { recordAt: expect.any(Number) } })
      expect(unknown.outcome).toMatchObject({ decision: 'not-found', offline: { recordAt: null } })
      expect(unknown.calls).toEqual(known.calls)
      expect(known.calls).toEqual(['persons.findPersonByUserId', 'bio.verify', 'bio.biometrics'])
      expect([known.faces, unknown.faces]).toEqual([1, 1])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
