import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import type { OutboxItem } from '../../electron/shared/outbox'
import type { TestEngine } from './engine'
import { projectRoot } from './process'

export const fixture = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name))
export const sample = (name: string) => fixture(name).toString('base64')

export const testKey = () => randomBytes(32)

/** Fast timings so the tests see retries, probes and backoff within seconds. */
export const FAST_TIMING = { backoff: { baseMs: 20, capMs: 200 }, offlineProbeMs: 100, onlineProbeMs: 5_000, probeTimeoutMs: 1_000, claimMs: 3_000, stopGraceMs: 2_000 }

/** A loopback URL where nothing listens (a port taken and released). */
export async function closedPortUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 9
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}`
}

/** Polls `check` until it returns a truthy value; bounded in time. */
export async function waitFor<T>(check: () => T | Promise<T>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/**
 * Byte patterns that betray a photo stored in clear: JPEG SOI followed by the markers a JPEG
 * starts with (DQT, APP0 JFIF, APP1 Exif, APP14 Adobe), the PNG signature, and both in base64 (how
 * samples travel). Four bytes, not the bare three-byte FF D8 FF: the outbox is full of AES-GCM
 * ciphertext, in which any given three bytes turn up by chance about once per 16 MB, so a
 * three-byte test would fail at random; four bytes make a chance hit ~1 in 10^9 per MB.
 */
export const IMAGE_MAGIC: Array<{ name: string; bytes: Buffer }> = [
  ...['db', 'e0', 'e1', 'ee'].map((m) => ({ name: `JPEG FFD8FF${m.toUpperCase()}`, bytes: Buffer.from(`ffd8ff${m}`, 'hex') })),
  { name: 'PNG signature', bytes: Buffer.from('89504e470d0a1a0a', 'hex') },
  { name: 'JPEG in base64', bytes: Buffer.from('/9j/') },
  { name: 'PNG in base64', bytes: Buffer.from('iVBORw0KGgo') },
]

export interface ScanFinding {
  file: string
  what: string
}

/** Every file directly in `dir` whose name starts with one of `prefixes`, searched for secrets (as UTF-8 text) and image magic. */
export function scanFiles(dir: string, prefixes: string[], secrets: Array<{ name: string; value: string }>): { files: string[]; findings: ScanFinding[] } {
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => prefixes.some((p) => f.startsWith(p))) : []
  const findings: ScanFinding[] = []
  for (const file of files) {
    const data = readFileSync(join(dir, file))
    for (const { name, value } of secrets) {
      if (value && (data.includes(Buffer.from(value, 'utf8')) || data.includes(Buffer.from(value.toLowerCase(), 'utf8')))) findings.push({ file, what: name })
    }
    for (const { name, bytes } of IMAGE_MAGIC) if (data.includes(bytes)) findings.push({ file, what: name })
  }
  return { files, findings }
}

/**
 * The engine's view of delivered outbox items: for each, how many persons have the userId and
 * how many templates carry the item's template context (both must be exactly 1).
 */
export async function engineTally(
  t: TestEngine,
  items: Array<Pick<OutboxItem, 'id' | 'userId'>>,
): Promise<Array<{ id: string; userId: string; persons: number; contexts: number; templatesOfPerson: number }>> {
  const { db } = t.engine.ctx.store
  const count = async (sql: string, value: string) => (await db.get<{ n: number }>(sql, [value]))!.n
  const tally = []
  for (const { id, userId } of items) {
    const persons = await db.all<{ uuid: string }>('SELECT uuid FROM persons WHERE user_id = ?', [userId])
    const contexts = await count('SELECT COUNT(*) AS n FROM templates WHERE template_context = ?', `outbox-${id}`)
    const templatesOfPerson = persons.length === 1 ? await count('SELECT COUNT(*) AS n FROM templates WHERE person_id = ?', persons[0]!.uuid) : -1
    tally.push({ id, userId, persons: persons.length, contexts, templatesOfPerson })
  }
  return tally
}
