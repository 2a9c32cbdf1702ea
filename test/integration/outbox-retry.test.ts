import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFacePlugins } from '../../electron/engine/face'
import type { Backend } from '../../electron/services/backend'
import { openOutbox } from '../../electron/services/outbox'
import { backendProbe } from '../../electron/services/outbox/probe'
import { enrollVisitor } from '../../electron/services/workflows/enroll-visitor'
import { testBackend } from '../support/backend'
import { startTestEngine, type TestEngine } from '../support/engine'
import { closedPortUrl, FAST_TIMING, sample, testKey, waitFor } from '../support/outbox-helpers'

describe('an operator’s "Retry now" (real SQLite, real clients, real engine)', () => {
  let t: TestEngine
  let online: ReturnType<typeof testBackend>
  let offline: ReturnType<typeof testBackend>
  let dir: string
  beforeAll(async () => {
    t = await startTestEngine(await loadFacePlugins({ threads: 1, log: () => {} }))
    online = testBackend(t.url)
    offline = testBackend(await closedPortUrl(), { requestTimeoutMs: 1_000 })
    dir = mkdtempSync(join(tmpdir(), 'kiosk-outbox-retry-'))
  })
  afterAll(async () => {
    await online?.close()
    await offline?.close()
    await t?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('while offline: probes at once and says the servers cannot be reached; once they answer: sends it and says so', async () => {
    let current: Backend = offline
    let probes = 0
    // Probes on their own only once an hour here: any probe after the first is the retry's.
    const outbox = await openOutbox({
      dir,
      key: testKey(),
      deliver: (item) => enrollVisitor(current, item),
      probe: (signal) => {
        probes++
        return backendProbe(current)(signal)
      },
      timing: { ...FAST_TIMING, offlineProbeMs: 3_600_000 },
    })
    try {
      const item = await outbox.enqueue({ userId: 'retry@visitor.example', templateType: 'Face:HumanFaceRes', samples: [sample('person-c.jpg')] })
      outbox.start()
      await waitFor(async () => (await outbox.state()).online === false, 10_000, 'the first probe')
      expect(probes).toBe(1)

      const refused = await outbox.retryNow(item.id)
      expect(probes).toBe(2)
      expect(refused).toMatchObject({ online: false, item: { id: item.id, state: 'queued' } })

      current = online
      const sent = await outbox.retryNow(item.id)
      expect(probes).toBe(3)
      expect(sent).toMatchObject({ online: true, item: { id: item.id, state: 'delivered' } })
    } finally {
      await outbox.close()
    }
  })
})
