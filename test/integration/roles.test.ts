import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createWebHost, type WebHost } from '../../electron/host/server'
import { createDispatch, type Dispatch } from '../../electron/services/dispatch'
import { methodNames, type MethodName } from '../../electron/shared/contract'
import type { Envelope } from '../../electron/shared/errors'
import { BRIDGE_SESSION_HEADER, BRIDGE_TOKEN_HEADER } from '../../electron/shared/web-security'
import { handlersWithoutServers, testStaff } from '../support/handlers'

// Every contract method × {no session, operator, administrator}, over both transports (the web
// host's bridge and Electron's IPC binding), against the real handler table, staff accounts and
// sessions. The expected roles are written out here, not read from the contract, so a method whose
// role changes, or a new method, fails this test until someone decides who may call it.

const ipcHandlers = vi.hoisted(() => new Map<string, (event: unknown, input: unknown) => Promise<unknown>>())
vi.mock('electron', () => ({ ipcMain: { handle: (channel: string, fn: (event: unknown, input: unknown) => Promise<unknown>) => ipcHandlers.set(channel, fn) } }))

const visitorMethods: MethodName[] = ['getSession', 'keepSession', 'signIn', 'createFirstAdmin', 'getAppInfo', 'getEngineStatus', 'startLivenessChallenge', 'enrollVisitor', 'verifyVisitor', 'getOutbox', 'getTemplateTypes', 'getBranding', 'checkIn', 'checkInByFace', 'checkOutByFace', 'listHostNames', 'getBadgePolicy', 'checkInvite', 'joinSite', 'signOut', 'reportCamera']
const operatorMethods: MethodName[] = [
  'identifyVisitor',
  'faceMatch',
  'removeVisitor',
  'searchPersons',
  'getPersonDetail',
  'findPerson',
  'getAppUser',
  'getPersonTemplates',
  'deleteTemplates',
  'checkSamples',
  'retryOutboxItem',
  'discardOutboxItem',
  'getSiteSync',
  'getSettings',
  'getAuditLog',
  'verifyAuditLog',
  'getReplicaStatus',
  'syncReplica',
  'getHostNotices',
  'retryHostNotice',
  'listOnSite',
  'visitLog',
  'visitOverview',
  'exportVisitsCsv',
  'endVisit',
  'listHosts',
  'addHost',
  'updateHost',
  'removeHost',
  'createInvite',
  'listInvites',
  'revokeInvite',
  'listWatchlist',
  'getWatchlistAlerts',
  'dismissWatchlistAlert',
  'getInviteAlerts',
  'dismissInviteAlert',
]
const adminMethods: MethodName[] = [
  'listAccounts',
  'createAccount',
  'setAccountDisabled',
  'getTenant',
  'updateTenant',
  'getTenantApps',
  'getTenantApp',
  'associateApp',
  'disassociateApp',
  'associateAlgorithm',
  'disassociateAlgorithm',
  'associateLiveness',
  'disassociateLiveness',
  'saveSettings',
  'getCredentialStatus',
  'setCredentials',
  'clearCredentials',
  'testConnection',
  'setLogo',
  'exportAuditLog',
  'rebuildCaches',
  'getEngineLogs',
  'getTemplateCoverage',
  'migrateTemplates',
  'wipeReplica',
  'confirmReplicaRemovals',
  'getHostNoticeSettings',
  'saveHostNoticeSettings',
  'setHostNoticeSecrets',
  'addToWatchlist',
  'removeFromWatchlist',
  'createPairingCode',
  'listKiosks',
  'removeKiosk',
]
const allowed = {
  visitor: new Set(visitorMethods),
  operator: new Set([...visitorMethods, ...operatorMethods]),
  admin: new Set([...visitorMethods, ...operatorMethods, ...adminMethods]),
}
// signOut last: it ends the session the walk runs in.
const walk = [...methodNames].sort((a, b) => Number(a === 'signOut') - Number(b === 'signOut'))

type Caller = (method: MethodName, input: unknown) => Promise<Envelope>
interface Transport {
  name: string
  /** A fresh window or tab with its own session. */
  open(): Promise<Caller>
}

const engineStatus = () => ({ mode: 'embedded' as const, state: 'running' as const, url: null, pid: null, restarts: 0, lastError: null })
const ADMIN = { name: 'Ada Admin', secret: 'admin-secret-1' }
const OPERATOR = { name: 'Otto Operator', secret: 'operator-secret-1' }

describe('roles are enforced in the services, on both transports', () => {
  let host: WebHost
  let origin: string
  let dispatch: Dispatch
  const staff = testStaff()
  const ended: string[] = []

  beforeAll(async () => {
    dispatch = createDispatch(handlersWithoutServers(engineStatus, { staff }), staff.resolveActor, () => {})
    host = createWebHost({
      dispatch,
      endSession: (key, reason) => {
        if (staff.sessions.end(key)) ended.push(`${key}: ${reason}`)
      },
    })
    origin = (await host.listen(0)).origin
    const { bindIpc } = await import('../../electron/main/ipc')
    bindIpc(dispatch, () => true)
    // The first administrator, then an operator account made by them.
    expect(await dispatch('createFirstAdmin', ADMIN, 'setup')).toMatchObject({ ok: true, value: { role: 'admin' } })
    expect(await dispatch('createAccount', { ...OPERATOR, role: 'operator' }, 'setup')).toMatchObject({ ok: true })
  })
  afterAll(() => host.close())

  let nextWindow = 1
  const transports: Transport[] = [
    {
      name: 'web bridge',
      async open() {
        const headers = { 'content-type': 'application/json', [BRIDGE_TOKEN_HEADER]: host.token }
        const issued = await request(`${origin}/bridge/session`, { method: 'POST', headers: { [BRIDGE_TOKEN_HEADER]: host.token } })
        const { session } = (await issued.body.json()) as { session: string }
        return async (method, input) => {
          const reply = await request(`${origin}/bridge/${method}`, { method: 'POST', headers: { ...headers, [BRIDGE_SESSION_HEADER]: session }, body: JSON.stringify(input) })
          expect(reply.statusCode).toBe(200)
          return (await reply.body.json()) as Envelope
        }
      },
    },
    {
      name: 'IPC',
      async open() {
        const sender = { id: nextWindow++ }
        return async (method, input) => (await ipcHandlers.get(`kiosk:${method}`)!({ senderFrame: {}, sender }, input)) as Envelope
      },
    },
  ]

  for (const transport of transports) {
    for (const role of ['visitor', 'operator', 'admin'] as const) {
      it(`${transport.name}: ${role === 'visitor' ? 'no session' : role} may call exactly its methods`, async () => {
        const call = await transport.open()
        if (role !== 'visitor') {
          const account = role === 'admin' ? ADMIN : OPERATOR
          expect(await call('signIn', account)).toMatchObject({ ok: true, value: { role, account: account.name } })
        }
        const refused: string[] = []
        for (const method of walk) {
          const reply = await call(method, {})
          if (!reply.ok && reply.error.code === 'FORBIDDEN') refused.push(method)
        }
        expect(new Set(refused)).toEqual(new Set(methodNames.filter((m) => !allowed[role].has(m))))
        // After signOut (the walk's last call) the same window is a visitor again.
        expect(await call('getSession', {})).toMatchObject({ ok: true, value: { role: 'visitor', account: null } })
      })
    }
  }

  it('lists every contract method in exactly one role', () => {
    const listed = [...visitorMethods, ...operatorMethods, ...adminMethods]
    expect(listed.length).toBe(new Set(listed).size)
    expect(new Set(listed)).toEqual(new Set(methodNames))
  })

  it('keeps one window’s sign-in out of every other window', async () => {
    for (const transport of transports) {
      const staffWindow = await transport.open()
      const otherWindow = await transport.open()
      await staffWindow('signIn', ADMIN)
      expect(await staffWindow('listAccounts', {})).toMatchObject({ ok: true })
      expect(await otherWindow('listAccounts', {})).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
    }
  })

  it('refuses a wrong secret, a disabled account, and a second first administrator', async () => {
    const call = await transports[0]!.open()
    expect(await call('signIn', { ...OPERATOR, secret: 'wrong-secret' })).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } })
    expect(await call('createFirstAdmin', { name: 'Mallory', secret: 'mallory-secret' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
    const admin = await transports[1]!.open()
    await admin('signIn', ADMIN)
    const operator = await transports[1]!.open()
    await operator('signIn', OPERATOR)
    expect(await operator('getAuditLog', {})).not.toMatchObject({ error: { code: 'FORBIDDEN' } })
    expect(await admin('setAccountDisabled', { name: OPERATOR.name, disabled: true })).toMatchObject({ ok: true, value: { disabled: true } })
    // Disabling ends the account's open sessions and refuses its next sign-in.
    expect(await operator('getAuditLog', {})).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
    expect(await operator('signIn', OPERATOR)).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } })
    await admin('setAccountDisabled', { name: OPERATOR.name, disabled: false })
  })

  it('ends a tab’s staff session when its page goes away (its event stream closes), and forgets the tab', async () => {
    const auth = { [BRIDGE_TOKEN_HEADER]: host.token }
    const { session } = (await (await request(`${origin}/bridge/session`, { method: 'POST', headers: auth })).body.json()) as { session: string }
    const headers = { ...auth, [BRIDGE_SESSION_HEADER]: session, 'content-type': 'application/json' }
    const signedIn = await request(`${origin}/bridge/signIn`, { method: 'POST', headers, body: JSON.stringify(ADMIN) })
    expect(await signedIn.body.json()).toMatchObject({ ok: true, value: { role: 'admin' } })
    const stream = await request(`${origin}/bridge/events`, { headers })
    expect(stream.statusCode).toBe(200)
    stream.body.destroy()
    await expect.poll(() => ended).toEqual([`web:${session}: page closed or reloaded`])
    expect(staff.sessions.actor(`web:${session}`)).toEqual({ role: 'visitor', account: null })
    const after = await request(`${origin}/bridge/getSession`, { method: 'POST', headers, body: '{}' })
    expect(after.statusCode).toBe(409)
    await after.body.dump()
  })

  it('answers the site methods on a kiosk on its own: not on a site', async () => {
    const admin = await transports[0]!.open()
    await admin('signIn', ADMIN)
    for (const [method, input] of [['createPairingCode', {}], ['listKiosks', {}], ['removeKiosk', { id: '00000000-0000-4000-8000-000000000000' }]] as const) {
      expect(await admin(method, input), method).toEqual({ ok: false, error: { code: 'NOT_CONFIGURED', message: 'This kiosk is not on a site.' } })
    }
  })

  it('lets an administrator join a site, and a visitor only while the kiosk has no staff account', async () => {
    // A site nobody answers at: past the role check, the join fails to reach it.
    const join = { url: 'http://127.0.0.1:1', code: 'ABCD-EFGH', name: 'Lobby' }
    const visitor = await transports[0]!.open()
    expect(await visitor('joinSite', join)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
    const admin = await transports[1]!.open()
    await admin('signIn', ADMIN)
    expect(await admin('joinSite', join)).toMatchObject({ ok: false, error: { code: 'UNREACHABLE' } })
    expect(await admin('joinSite', { ...join, code: 'O0O0-I1I1' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })

    // A fresh kiosk (no account yet): its first-run screen may join, as a visitor.
    const fresh = testStaff()
    const firstRun = createDispatch(handlersWithoutServers(engineStatus, { staff: fresh }), fresh.resolveActor, () => {})
    expect(await firstRun('getSession', {}, 'first-run')).toMatchObject({ ok: true, value: { role: 'visitor', firstRun: true } })
    expect(await firstRun('joinSite', join, 'first-run')).toMatchObject({ ok: false, error: { code: 'UNREACHABLE' } })
  })

  it('answers a session id the host never issued with 409, so the page asks for a new one', async () => {
    const reply = await request(`${origin}/bridge/getSession`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [BRIDGE_TOKEN_HEADER]: host.token, [BRIDGE_SESSION_HEADER]: 'forged-session-id' },
      body: '{}',
    })
    expect(reply.statusCode).toBe(409)
    await reply.body.dump()
  })
})
