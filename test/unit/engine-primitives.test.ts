import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TemplateCache } from '../../electron/engine/bio/template-cache'
import { decodeTemplate, encodeTemplate, normalize, TemplateFormatError } from '../../electron/engine/bio/template-codec'
import { createZip } from '../../electron/engine/logs/zip'
import { createSealer } from '../../electron/engine/store/sealer'

const unit = (...values: number[]) => normalize(Float32Array.from(values))

describe('template codec', () => {
  it('round-trips plugin, version, quality and vector', () => {
    const template = { plugin: 'HumanFaceRes', modelVersion: 3, quality: 0.75, vector: unit(1, 2, 3, 4) }
    const decoded = decodeTemplate(encodeTemplate(template))
    expect(decoded.plugin).toBe('HumanFaceRes')
    expect(decoded.modelVersion).toBe(3)
    expect(decoded.quality).toBeCloseTo(0.75)
    expect([...decoded.vector]).toEqual([...template.vector])
  })

  it('refuses foreign, truncated and padded bytes', () => {
    const bytes = encodeTemplate({ plugin: 'P', modelVersion: 1, quality: 1, vector: unit(1, 0) })
    for (const bad of [Buffer.from('hello world, not a template'), bytes.subarray(0, bytes.length - 1), Buffer.concat([bytes, Buffer.from([0])])]) {
      expect(() => decodeTemplate(bad)).toThrow(TemplateFormatError)
    }
  })

  it('refuses a quality that is not a number from 0 to 1, and vectors with non-finite values or no length', () => {
    const vector = unit(3, 4)
    for (const quality of [Number.NaN, Number.POSITIVE_INFINITY, -0.01, 1.01]) {
      expect(() => decodeTemplate(encodeTemplate({ plugin: 'P', modelVersion: 1, quality, vector })), `quality ${quality}`).toThrow(/quality/)
    }
    for (const bad of [Float32Array.of(0, 0), Float32Array.of(Number.NaN, 1), Float32Array.of(Number.NEGATIVE_INFINITY, 0)]) {
      expect(() => decodeTemplate(encodeTemplate({ plugin: 'P', modelVersion: 1, quality: 0.5, vector: bad })), String([...bad])).toThrow(TemplateFormatError)
    }
    for (const quality of [0, 1]) expect(decodeTemplate(encodeTemplate({ plugin: 'P', modelVersion: 1, quality, vector })).quality).toBe(quality)
  })
})

describe('template cache', () => {
  /** A cache with the full vectors it re-scores from, as the engine's store holds them. */
  const cacheOf = (rows: Array<[string, string, Float32Array]>) => {
    const stored = new Map(rows.map(([person, context, vector]) => [`${person}/${context}`, vector]))
    const cache = new TemplateCache(2, async (person, context) => stored.get(`${person}/${context}`) ?? null, 1)
    for (const [person, context, vector] of rows) cache.put(person, context, vector)
    return { cache, stored }
  }

  it('finds the best template per person above the similarity floor, best first', async () => {
    const { cache } = cacheOf([
      ['alice', 'c1', unit(1, 0)],
      ['alice', 'c2', unit(0.9, 0.1)],
      ['bob', 'c1', unit(0, 1)],
      ['carol', 'c1', unit(0.7, 0.7)],
    ])
    const hits = await cache.search(unit(1, 0), 0.5, 10)
    expect(hits.map((h) => h.personId)).toEqual(['alice', 'carol'])
    expect(hits[0]!.similarity).toBeCloseTo(1)
    expect(await cache.search(unit(1, 0), 0.5, 1)).toHaveLength(1)
    expect(await cache.search(unit(1, 0), 1.01, 10)).toEqual([])
  })

  it('keeps rows dense and correct through replace, remove and removePerson', async () => {
    const { cache, stored } = cacheOf([
      ['a', 'x', unit(1, 0)],
      ['b', 'x', unit(0, 1)],
      ['c', 'x', unit(-1, 0)],
    ])
    stored.set('a/x', unit(0, -1))
    cache.put('a', 'x', unit(0, -1)) // replace in place
    expect(cache.size).toBe(3)
    stored.delete('a/x')
    cache.remove('a', 'x') // the last row moves into the hole
    expect(cache.size).toBe(2)
    expect((await cache.search(unit(-1, 0), 0.99, 5)).map((h) => h.personId)).toEqual(['c'])
    expect(await cache.search(unit(0, -1), 0.99, 5)).toEqual([])
    cache.removePerson(['b', 'c'])
    expect(cache.size).toBe(0)
  })
})

describe('template sealing', () => {
  it('encrypts with AES-256-GCM and detects tampering', () => {
    const sealer = createSealer(Buffer.alloc(32, 7))
    const plain = Buffer.from('a biometric template')
    const sealed = sealer.seal(plain)
    expect(sealed.includes(plain)).toBe(false)
    expect(sealer.open(sealed).equals(plain)).toBe(true)
    sealed[sealed.length - 1]! ^= 1
    expect(() => sealer.open(sealed)).toThrow()
    expect(() => createSealer(Buffer.alloc(31)).seal(plain)).toThrow()
  })
})

describe('log zip', () => {
  it('writes an archive a standard unzip reads back', () => {
    const zip = createZip([
      { name: 'engine.log', data: Buffer.from('line one\nline two\n') },
      { name: 'plugins.log', data: Buffer.alloc(10_000, 'x') },
    ])
    const file = join(mkdtempSync(join(tmpdir(), 'zip-')), 'logs.zip')
    writeFileSync(file, zip)
    const script = 'import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nprint(z.read("engine.log").decode(), len(z.read("plugins.log")))'
    const run = spawnSync('python3', ['-c', script, file], { encoding: 'utf8' })
    expect(run.stderr).toBe('')
    expect(run.stdout).toBe('line one\nline two\n 10000\n')
  })
})
