import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeTemplate } from '../../electron/engine/bio/template-codec'
import { createSealer, loadTemplateKey } from '../../electron/engine/store/sealer'
import { openStore } from '../../electron/engine/store/store'
import { TYPE_PAGE_AFTER, TYPE_PAGE_FIRST } from '../../electron/engine/store/templates'
import { prng, unitVector } from '../bench/lib/seed'

/**
 * A cache load reads a type's templates a page at a time. With only the type indexed, SQLite would
 * walk and sort every template of the type for each page, and a million would take minutes to
 * load; so each page must be one range of an index, in key order.
 */
describe('a cache load’s pages of one template type (SQLite)', () => {
  let dataDir: string
  const random = prng(28)
  const template = () => encodeTemplate({ plugin: 'P', modelVersion: 1, quality: 0.9, vector: unitVector(8, random) })

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'template-pages-'))
    const store = await openStore({ dataDir, sealer: createSealer(loadTemplateKey(dataDir, {})) })
    try {
      await store.transaction(async (tx) => {
        // Person ids in mixed case and several contexts each, over two types.
        for (let i = 0; i < 9000; i++) await tx.templates.put(`Person-${String(i % 4500).padStart(5, '0')}`, i % 3 === 0 ? 'Face:Other' : 'Face:P', `c${Math.floor(i / 4500)}`, template())
      })
    } finally {
      await store.close()
    }
  })
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('is one index range each, with no sort of the whole type', () => {
    const db = new Database(join(dataDir, 'engine.db'), { readonly: true })
    try {
      for (const [sql, params] of [
        [TYPE_PAGE_FIRST, ['Face:P', 10]],
        [TYPE_PAGE_AFTER, ['Face:P', 'person-00010', 'c0', 10]],
      ] as const) {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((row) => row.detail).join('; ')
        expect(plan).toMatch(/USING (COVERING )?INDEX templates_by_type \(template_type=\?/)
        expect(plan).not.toMatch(/TEMP B-TREE/)
      }
    } finally {
      db.close()
    }
  })

  it('reads every template of the type once, in key order, across pages, sealed as stored', async () => {
    const store = await openStore({ dataDir, sealer: createSealer(loadTemplateKey(dataDir, {})) })
    try {
      const keys: string[] = []
      const sealer = createSealer(store.templates.sealKey)
      for await (const page of store.templates.sealedPagesOfType('Face:P')) {
        for (const stored of page) {
          keys.push(`${stored.personId}/${stored.templateContext}`)
          expect(sealer.open(stored.sealed).subarray(0, 3).toString()).toBe('BKT')
        }
      }
      expect(keys).toHaveLength(6000)
      expect(new Set(keys).size).toBe(6000)
      expect(keys).toEqual([...keys].sort())
    } finally {
      await store.close()
    }
  })
})
