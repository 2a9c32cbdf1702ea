import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeTemplate, normalize } from '../../../electron/engine/bio/template-codec'
import { createSealer, loadTemplateKey } from '../../../electron/engine/store/sealer'
import { openStore } from '../../../electron/engine/store/store'
import type { FacePluginSpec } from '../../../electron/engine/face/plugin'

/** A deterministic PRNG (mulberry32), so every run enrolls the same vectors. */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A random unit vector (uniform on the sphere: normalised Gaussian components). */
export function unitVector(dims: number, random: () => number): Float32Array {
  const v = new Float32Array(dims)
  for (let i = 0; i < dims; i++) v[i] = Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random())
  return normalize(v)
}

export const seededPersonId = (row: number) => `bench-${String(row).padStart(7, '0')}`

/**
 * Writes templates straight into an engine data folder (as enrollment would store them: encoded,
 * sealed with the folder's template key), one person per template, rows [from, to). Going through
 * HTTP for 100k enrollments would measure enrollment, not identify.
 */
export async function seedTemplates(dataDir: string, spec: FacePluginSpec, from: number, to: number, into: Float32Array, databaseUrl?: string): Promise<void> {
  const dims = spec.dimensions
  const store = await openStore({ dataDir, databaseUrl, sealer: createSealer(loadTemplateKey(dataDir, {})) })
  try {
    const random = prng(from + 1)
    await store.transaction(async (tx) => {
      for (let row = from; row < to; row++) {
        const vector = unitVector(dims, random)
        into.set(vector, row * dims)
        await tx.templates.put(seededPersonId(row), `Face:${spec.name}`, 'bench', encodeTemplate({ plugin: spec.name, modelVersion: spec.modelVersion, quality: 0.9, vector }))
      }
    })
  } finally {
    await store.close()
  }
}

/** Writes these vectors as templates (one person each), as enrollment would store them. */
export async function seedVectors(dataDir: string, spec: FacePluginSpec, entries: Array<{ personId: string; vector: Float32Array }>): Promise<void> {
  const store = await openStore({ dataDir, sealer: createSealer(loadTemplateKey(dataDir, {})) })
  try {
    await store.transaction(async (tx) => {
      for (const { personId, vector } of entries) {
        await tx.templates.put(personId, `Face:${spec.name}`, 'bench', encodeTemplate({ plugin: spec.name, modelVersion: spec.modelVersion, quality: 0.9, vector }))
      }
    })
  } finally {
    await store.close()
  }
}

/** A probe close to enrolled row `row` (cosine ~0.9), as a base64 template: a genuine search. */
export function probeNear(vectors: Float32Array, spec: FacePluginSpec, row: number, random: () => number): string {
  const dims = spec.dimensions
  const noise = unitVector(dims, random)
  const vector = new Float32Array(dims)
  for (let d = 0; d < dims; d++) vector[d] = vectors[row * dims + d]! + 0.45 * noise[d]!
  return encodeTemplate({ plugin: spec.name, modelVersion: spec.modelVersion, quality: 0.9, vector: normalize(vector) }).toString('base64')
}

export interface SeededStore {
  dataDir: string
  spec: FacePluginSpec
  /** Rows 0..count-1 are enrolled, as persons seededPersonId(row). */
  count: number
  vectors: Float32Array
}

const stores = new Map<string, SeededStore>()

/**
 * One seeded data folder per plugin (or per key) for the whole run, grown to `count` templates on demand, so the
 * identify and load sections share the 100k seeding. Removed when the process exits.
 */
export async function seededStore(spec: FacePluginSpec, count: number, key = spec.name): Promise<SeededStore> {
  let store = stores.get(key)
  if (!store) {
    const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-bench-'))
    process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }))
    store = { dataDir, spec, count: 0, vectors: new Float32Array(0) }
    stores.set(key, store)
  }
  if (count > store.count) {
    const vectors = new Float32Array(count * spec.dimensions)
    vectors.set(store.vectors)
    await seedTemplates(store.dataDir, spec, store.count, count, vectors)
    store.vectors = vectors
    store.count = count
  }
  return store
}

/** One plain pass over the vector bytes: the floor any identify scan must pay. */
export function plainPass(vectors: Float32Array): number {
  let sum = 0
  for (let i = 0; i < vectors.length; i++) sum += vectors[i]!
  return sum
}
