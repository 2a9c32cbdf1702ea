import { randomUUID } from 'node:crypto'
import { mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { endOfDay, INVITE_KEEP_MS, invitesFeature, type InvitesFeature } from '../../electron/services/features/invites'
import { SINGLE_KEY_ID, singleKeyring } from '../../electron/records/frontdesk/invite-keyring'
import { readInviteToken, signInviteToken } from '../../electron/records/frontdesk/invite-tokens'
import type { Call } from '../../electron/services/dispatch'
import { openAuditLog } from '../../electron/services/audit'
import { auditedHandlers } from '../../electron/services/audited-handlers'
import { handlersWithoutServers, testFrontDesk, type TestFrontDesk } from '../support/handlers'
import { checkInviteInput } from '../../electron/shared/invites'

// Invites over a kiosk's own front desk in a fresh data folder, a real HMAC key (the keychain's, on
// its own) and a clock the test moves.

const KEY = Buffer.alloc(32, 1)
const staff: Call = { actor: { role: 'operator', account: 'Otto Operator' }, key: 'wc:1' }
const visitor: Call = { actor: { role: 'visitor', account: null }, key: 'wc:2' }
// Noon on 10 March 2026, kiosk time; the visit is the same day.
const NOON = new Date(2026, 2, 10, 12, 0, 0).getTime()

let clock = NOON
let feature: InvitesFeature
let frontDesk: TestFrontDesk
let dataDir: string
/** The invites feature on the front desk, as the operator's session. */
const invitesOn = (desk: TestFrontDesk) =>
  invitesFeature({ desk: async () => desk.desk, staffDesk: async () => desk.desk.as({ token: 'test', account: 'Otto Operator' }), own: desk.records, emit: () => {}, now: () => clock, log: () => {} })
const open = () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kiosk-invites-test-'))
  frontDesk = testFrontDesk({ dataDir, kioskId: 'kiosk-1', now: () => clock, inviteKeys: singleKeyring(async () => KEY) })
  feature = invitesOn(frontDesk)
  return feature
}
afterEach(async () => {
  await feature?.stop?.()
  await frontDesk?.close()
  clock = NOON
})
/** A check-in with the code, at the front desk: it uses the code up with the visit stored, or says why not. */
const use = async (token: string) => {
  const done = await frontDesk.desk.checkIn({ person: { personUuid: randomUUID(), email: 'ines@example.org', firstName: null }, hostId: null, purpose: null, inviteToken: token, asLastTime: false })
  return done.outcome === 'checked-in' ? { ok: true, inviteId: done.visit.inviteId, visitId: done.visit.id } : { ok: false, reason: done.reason }
}

const create = (input: Partial<{ email: string; hostId: string | null; date: string }> = {}) =>
  feature.handlers.createInvite!({ email: 'ines@example.org', hostId: null, date: '2026-03-10', ...input }, staff)
const check = (token: string) => feature.handlers.checkInvite!({ token }, visitor)

describe('invites', () => {
  it('gives a short signed code that fills the form with the e-mail, host and date, and nothing else', async () => {
    open()
    const host = await frontDesk.desk.as({ token: 'test', account: 'Otto Operator' }).addHost({ name: 'Hugo Host', email: null, webhookUrl: null })
    const { invite, token } = await create({ hostId: host.id })
    expect(token.length).toBeLessThan(100)
    expect(invite).toMatchObject({ email: 'ines@example.org', hostId: host.id, hostName: 'Hugo Host', date: '2026-03-10', state: 'open', createdBy: 'Otto Operator' })
    expect(invite.expiresAt).toBe(endOfDay('2026-03-10'))
    expect(await check(token)).toEqual({ status: 'valid', email: 'ines@example.org', hostId: host.id, hostName: 'Hugo Host', date: '2026-03-10' })
    // Checking does not use it up.
    expect((await check(token)).status).toBe('valid')
    expect((await feature.handlers.listInvites!({}, staff)).invites.map((i) => i.id)).toEqual([invite.id])
    // Personal data: the store is private to the kiosk's user.
    expect(statSync(join(dataDir, 'frontdesk.db')).mode & 0o777).toBe(0o600)
  })

  it('refuses a forged code: another key, an altered signature, an altered expiry, or no code at all', async () => {
    open()
    const { invite, token } = await create()
    const otherKey = signInviteToken({ kid: SINGLE_KEY_ID, secret: Buffer.alloc(32, 2), publicKey: null }, { inviteId: invite.id, expiresAt: invite.expiresAt })
    const lastChar = token.at(-1) === 'A' ? 'B' : 'A'
    const alteredMac = token.slice(0, -1) + lastChar
    // The same MAC bytes written another way: the last of 43 base64url characters carries 2 bits and
    // 4 unused ones, so setting an unused bit changes the text but not the bytes. A code is one text.
    const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    const sameBytes = token.slice(0, -1) + BASE64URL[BASE64URL.indexOf(token.at(-1)!) | 1]
    expect(sameBytes).not.toBe(token)
    expect(Buffer.from(sameBytes.split('.')[4]!, 'base64url')).toEqual(Buffer.from(token.split('.')[4]!, 'base64url'))
    const [prefix, kid, id, , mac] = token.split('.')
    const laterExpiry = [prefix, kid, id, Math.floor((invite.expiresAt + 86_400_000) / 1000).toString(36), mac].join('.')
    for (const forged of [otherKey, alteredMac, sameBytes, laterExpiry, 'hello', `${token}.x`, 'KI1...', 'https://example.org/']) {
      expect(await check(forged), forged).toEqual({ status: 'refused', reason: 'invalid' })
    }
    // Signed with our key, but for an invite this kiosk never stored.
    const unknown = signInviteToken({ kid: SINGLE_KEY_ID, secret: KEY, publicKey: null }, { inviteId: 'A'.repeat(22), expiresAt: invite.expiresAt })
    expect(await readInviteToken(unknown, async () => ({ secret: KEY, publicKey: null }))).not.toBeNull()
    expect(await check(unknown)).toEqual({ status: 'refused', reason: 'invalid' })
    expect(await use(alteredMac)).toEqual({ ok: false, reason: 'invalid' })
    // An over-long code never reaches the handler.
    expect(checkInviteInput.safeParse({ token: 'K'.repeat(300) }).success).toBe(false)
  })

  it('is used once: the check-in uses it up, and the same code is then refused as used', async () => {
    open()
    const { invite, token } = await create()
    const used = await use(token)
    expect(used).toEqual({ ok: true, inviteId: invite.id, visitId: expect.any(String) })
    expect(await check(token)).toEqual({ status: 'refused', reason: 'used' })
    expect(await use(token)).toEqual({ ok: false, reason: 'used' })
    const [stored] = (await feature.handlers.listInvites!({ state: 'used' }, staff)).invites
    expect(stored).toMatchObject({ id: invite.id, state: 'used', visitId: used.visitId, usedAt: NOON })
    await expect(feature.handlers.revokeInvite!({ id: invite.id }, staff)).rejects.toMatchObject({ code: 'INVALID_INPUT' })
  })

  it('expires at the end of the visit’s day', async () => {
    open()
    const { token } = await create()
    clock = endOfDay('2026-03-10')! - 1000
    expect((await check(token)).status).toBe('valid')
    clock = endOfDay('2026-03-10')!
    expect(await check(token)).toEqual({ status: 'refused', reason: 'expired' })
    expect(await use(token)).toEqual({ ok: false, reason: 'expired' })
    expect((await feature.handlers.listInvites!({ state: 'expired' }, staff)).invites).toHaveLength(1)
    expect((await feature.handlers.listInvites!({ state: 'open' }, staff)).invites).toHaveLength(0)
  })

  it('is refused once revoked', async () => {
    open()
    const { invite, token } = await create({ date: '2026-03-12' })
    expect(await feature.handlers.revokeInvite!({ id: invite.id }, staff)).toMatchObject({ state: 'revoked' })
    expect(await check(token)).toEqual({ status: 'refused', reason: 'revoked' })
    expect(await use(token)).toEqual({ ok: false, reason: 'revoked' })
    await expect(feature.handlers.revokeInvite!({ id: 'nope' }, staff)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('refuses a day in the past, a day not in the calendar, too far ahead, and a host the directory does not know', async () => {
    open()
    await expect(create({ date: '2026-03-09' })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/past/) })
    await expect(create({ date: '2026-02-30' })).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    await expect(create({ date: '2027-06-01' })).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    await expect(create({ hostId: 'h-9' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect((await feature.handlers.listInvites!({}, staff)).invites).toEqual([])
  })

  it('goes with its person: a removed visitor’s invites are deleted, whatever the e-mail’s case', async () => {
    open()
    const { token } = await create({ email: 'Removed.Person@example.org' })
    const kept = await create({ email: 'someone.else@example.org' })
    // The person removed: the kiosk on its own forgets them at its front desk (visits and invites).
    await frontDesk.records.forgetPerson({ userId: 'removed.person@EXAMPLE.org' })
    expect(await check(token)).toEqual({ status: 'refused', reason: 'invalid' })
    expect((await feature.handlers.listInvites!({}, staff)).invites.map((i) => i.id)).toEqual([kept.invite.id])
  })

  it('forgets invites 30 days after they ended, at start', async () => {
    open()
    const { token } = await create()
    await feature.stop?.()
    clock = endOfDay('2026-03-10')! + INVITE_KEEP_MS + 1000
    feature = invitesOn(frontDesk)
    await feature.start?.()
    expect((await feature.handlers.listInvites!({}, staff)).invites).toEqual([])
    expect(await check(token)).toEqual({ status: 'refused', reason: 'invalid' })
  })

  it('audits what staff do and every refused code, never the code itself', async () => {
    const audit = openAuditLog({ dir: mkdtempSync(join(tmpdir(), 'kiosk-invites-audit-')), kioskId: 'kiosk-1' })
    const engine = () => ({ mode: 'embedded' as const, state: 'running' as const, url: null, pid: null, restarts: 0, lastError: null })
    const handlers = auditedHandlers(handlersWithoutServers(engine, { audit: () => audit }), () => audit, () => {})
    // The operator's window holds a session at the front desk (the first account there).
    await handlers.createFirstAdmin({ name: 'Otto Operator', secret: 'operator-secret-1' }, { actor: { role: 'visitor', account: null }, key: staff.key })
    // These handlers run on the real clock: tomorrow, kiosk time.
    const next = new Date(Date.now() + 86_400_000)
    const tomorrow = `${next.getFullYear()}-${String(next.getMonth() + 1).padStart(2, '0')}-${String(next.getDate()).padStart(2, '0')}`
    const { invite, token } = await handlers.createInvite({ email: 'audit.me@example.org', hostId: null, date: tomorrow }, staff)
    expect(await handlers.checkInvite({ token: token.slice(0, -2) + 'xx' }, visitor)).toEqual({ status: 'refused', reason: 'invalid' })
    await handlers.revokeInvite({ id: invite.id }, staff)
    const entries = audit.query({ actions: ['invite-create', 'invite-check', 'invite-revoke'] })
    const seen = entries.map((e) => `${e.action} ${e.outcome} ${e.role}`).reverse()
    expect(seen).toEqual(['invite-create started operator', 'invite-create ok operator', 'invite-check started visitor', 'invite-check refused visitor', 'invite-revoke started operator', 'invite-revoke ok operator'])
    expect(entries.find((e) => e.action === 'invite-create' && e.outcome === 'ok')).toMatchObject({ account: 'Otto Operator', subject: { userId: 'audit.me@example.org' }, detail: `invite ${invite.id} for ${tomorrow}; host none` })
    expect(entries.find((e) => e.outcome === 'refused')?.detail).toBe('code refused: invalid')
    const mac = token.split('.').at(-1)!
    expect(JSON.stringify(entries)).not.toContain(mac)
  })

  it('has no invitation alerts on its own (a site finds them); a dismiss answers NOT_FOUND, audited', async () => {
    const audit = openAuditLog({ dir: mkdtempSync(join(tmpdir(), 'kiosk-invites-audit-')), kioskId: 'kiosk-1' })
    const engine = () => ({ mode: 'embedded' as const, state: 'running' as const, url: null, pid: null, restarts: 0, lastError: null })
    const handlers = auditedHandlers(handlersWithoutServers(engine, { audit: () => audit }), () => audit, () => {})
    await handlers.createFirstAdmin({ name: 'Otto Operator', secret: 'operator-secret-1' }, { actor: { role: 'visitor', account: null }, key: staff.key })
    expect(await handlers.getInviteAlerts({}, staff)).toEqual([])
    const id = randomUUID()
    await expect(handlers.dismissInviteAlert({ id }, staff)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    const entries = audit.query({ actions: ['invite-alert-dismiss'] }).reverse()
    expect(entries.map((e) => [e.outcome, e.account, e.detail])).toEqual([
      ['started', 'Otto Operator', `alert ${id}`],
      ['refused', 'Otto Operator', 'NOT_FOUND'],
    ])
  })
})
