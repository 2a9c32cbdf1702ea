import type { WasmMemory } from './dot-kernel'

/** Messages between the identify cache and its worker threads (scan-pool.ts, scan-worker.ts). */

/** Which shared memory a job is about; the memory itself travels with a thread's first job for it. */
interface OnMemory {
  id: number
  memoryId: number
  memory?: WasmMemory
}

/** Scores `count` rows from `rowsAt` against `probes` probes at `probesAt` into `outAt`. */
export interface ScanJob extends OnMemory {
  kind: 'scan'
  probes: number
  probesAt: number
  rowsAt: number
  count: number
  stride: number
  outAt: number
}

/** Opens sealed templates with `key`, decodes them and rounds them into rows first.. of the memory (one row each). */
export interface LoadJob extends OnMemory, SealedPage {
  kind: 'load'
  rowsAt: number
  stride: number
  dimensions: number
  first: number
  key: Uint8Array
}

/**
 * A page of sealed templates in one buffer (template i is bytes ends[i-1]..ends[i]), handed to a
 * thread whole; the sealed bytes are in a shared buffer reused from page to page (scan-pool.ts).
 */
export interface SealedPage {
  sealed: Uint8Array
  ends: Uint32Array
}

export interface ReleaseJob {
  kind: 'release'
  memoryId: number
}

export type ScanWorkerJob = ScanJob | LoadJob | ReleaseJob

/** A load's rows: per row its scale, error and length (see quantize.ts); unreadable templates by index. */
export interface LoadedRows {
  scales: Float32Array
  errors: Float32Array
  lengths: Float32Array
  unreadable: number[]
}

export type ScanWorkerReply = { id: number; loaded?: LoadedRows } | { id: number; error: string }
