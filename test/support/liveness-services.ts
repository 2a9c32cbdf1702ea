import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openAuditLog } from '../../electron/services/audit'
import { auditedHandlers } from '../../electron/services/audited-handlers'
import type { Backend } from '../../electron/services/backend'
import { createDispatch } from '../../electron/services/dispatch'
import { createChallengeStore } from '../../electron/services/liveness/challenge-store'
import { livenessGate } from '../../electron/services/liveness/gate'
import { livenessPolicy } from '../../electron/services/liveness/policy'
import { openOutbox } from '../../electron/services/outbox'
import { roleViews } from '../../electron/services/role-views'
import { testBackend } from './backend'
import { TEST_TENANT, type TestEngine } from './engine'
import { handlersWithoutServers, testFrontDesk, testStaff, type ServicesInTest } from './handlers'
import { adminDispatch, type SessionCall } from './staff'

export const OPERATOR = Object.freeze({ name: 'Otto Operator', secret: 'operator-secret-1' })

/**
 * The services' handler table as kiosk-services composes it (liveness gate, the enrollment with a
 * real outbox, audit trail, roles, dispatch) over a real engine, without the OS keychain. The
 * engine is also the kiosk's own liveness judge; `goOffline` points the servers at a closed port
 * while the judge stays local, as in the kiosk.
 */
export async function livenessServices(t: TestEngine, options: Pick<ServicesInTest, 'visits'> & { frontDesk?: Parameters<typeof testFrontDesk>[0] } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-liveness-'))
  const online = testBackend(t.url)
  const local = testBackend(t.url)
  let current: Backend = online
  let clock = Date.now()
  const lines: string[] = []
  const log = (line: string) => lines.push(line)
  const audit = openAuditLog({ dir, kioskId: 'liveness-test' })
  // Never started: queued items stay queued for the test to see.
  const outbox = await openOutbox({ dir, key: randomBytes(32), deliver: async () => Promise.reject(new Error('not delivering in this test')), probe: async () => false })
  const frontDesk = testFrontDesk(options.frontDesk)
  const staff = testStaff(frontDesk)
  const backend = async () => current
  const liveness = livenessGate({
    backend,
    tenantCode: async () => TEST_TENANT,
    policy: livenessPolicy(log),
    challenges: createChallengeStore({ now: () => clock }),
    evaluate: (request) => local.bio.evaluateLiveness(request),
    stepSeconds: async () => 8,
    now: () => clock,
  })
  const handlers = handlersWithoutServers(() => ({ mode: 'embedded', state: 'running', url: t.url, pid: null, restarts: 0, lastError: null }), {
    backend,
    liveness,
    staff,
    audit: () => audit,
    outbox,
    visits: options.visits,
  })
  const dispatch = createDispatch(roleViews(auditedHandlers(handlers, () => audit, log)), staff.resolveActor, log)
  const admin = await adminDispatch(dispatch)
  const created = await admin('createAccount', { ...OPERATOR, role: 'operator' })
  if (!created.ok) throw new Error(`operator not created: ${created.error.message}`)
  const signedIn = await dispatch('signIn', OPERATOR, 'test:operator')
  if (!signedIn.ok) throw new Error(`operator sign-in failed: ${signedIn.error.message}`)

  const caller = (session: SessionCall) => ({
    call: async (method: string, input: unknown = {}) => {
      const reply = await session(method, input)
      if (!reply.ok) throw Object.assign(new Error(`${method}: ${reply.error.code} ${reply.error.message}`), reply.error)
      return reply.value as any
    },
    failure: async (method: string, input: unknown = {}) => {
      const reply = await session(method, input)
      if (reply.ok) throw new Error(`${method} unexpectedly succeeded`)
      return reply.error
    },
  })
  return {
    visitor: caller((method, input) => dispatch(method, input, 'test:visitor')),
    operator: caller((method, input) => dispatch(method, input, 'test:operator')),
    admin: caller(admin),
    /** Another window or tab, as a visitor. */
    window: (key: string) => caller((method, input) => dispatch(method, input, key)),
    audit,
    outbox,
    lines,
    advanceClock: (ms: number) => (clock += ms),
    async goOffline(url: string) {
      current = testBackend(url, { requestTimeoutMs: 2_000 })
    },
    goOnline() {
      current = online
    },
    async close() {
      await outbox.close()
      audit.close()
      await frontDesk.close()
      await Promise.all([online.close(), local.close()])
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
