/**
 * The identify scan's inner loop in WebAssembly SIMD, over compact rows: int8 rows against int16
 * probes, 16 row bytes per step, several probes per row read. At a million rows the scan is bound by
 * memory, not arithmetic, so each row is read once for every probe waiting (template-cache.ts) and
 * is 1 byte per dimension instead of float32's 4. The module is a few hundred bytes, assembled below
 * from its instructions so it can be read and reviewed; its results are checked against a JS loop in
 * the unit tests. Its memory is imported and may be shared, so worker threads scan the same rows.
 *
 *   scan<P>(probes, rows, count, stride, out):   (byte offsets into the memory; stride in bytes)
 *     for each of `count` rows of `stride` int8 values, starting at `rows`:
 *       out[row × P + p] = Σ probe_p[i] × row[i]   (int32; stride a positive multiple of 64)
 *     The P int16 probes are interleaved by block: for each block of 16 values, probe 0's 16 values
 *     (32 bytes), then probe 1's, and so on (see writeProbes). The loop takes 4 blocks per turn for
 *     1 or 2 probes and 2 blocks for more, whichever measured faster here (more spills V8's registers).
 *
 * Overflow cannot happen: every partial sum is at most Σ |probe[i] × row[i]| ≤
 * 127 × 8191 × 2048 < 2^31 (ROW_RANGE × PROBE_RANGE × MAX_STRIDE). A wider probe range would wrap
 * on a flat vector (every value the same size) scored against itself.
 */

/** Values per probe block (one v128 of int8 row values). */
export const PROBE_BLOCK = 16
/** Blocks per loop turn, by probe count. */
const unroll = (probes: number) => (probes <= 2 ? 4 : 2)
/** Values per loop turn at the widest unroll; a row's stride is a multiple of it. */
export const KERNEL_BLOCK = PROBE_BLOCK * 4
/** Probes scanned in one pass over the rows (one function per count, 1..MAX_PROBES). */
export const MAX_PROBES = 8
/** The largest stride the overflow argument above covers. */
export const MAX_STRIDE = 2048
/** int16 probe values: |value| ≤ PROBE_RANGE (the probe's rounding is still 64x finer than a row's). */
export const PROBE_RANGE = 8191
/** int8 row values: |value| ≤ ROW_RANGE. */
export const ROW_RANGE = 127

export type ScanFunction = (probes: number, rows: number, count: number, stride: number, out: number) => void

export interface DotKernel {
  memory: WasmMemory
  /** scan[P - 1] scans P probes at once. */
  scan: ScanFunction[]
}

const op = {
  block: 0x02, loop: 0x03, brIf: 0x0d, end: 0x0b, void: 0x40,
  localGet: 0x20, localSet: 0x21, localTee: 0x22,
  i32Const: 0x41, i32Eqz: 0x45, i32Add: 0x6a, i32Sub: 0x6b, i32Store: 0x36,
} as const
const simd = {
  v128Load: [0xfd, 0x00], v128Const: [0xfd, 0x0c], i32x4ExtractLane: [0xfd, 0x1b],
  extendLowI8: [0xfd, 0x87, 0x01], extendHighI8: [0xfd, 0x88, 0x01],
  i32x4Add: [0xfd, 0xae, 0x01], i32x4DotI16: [0xfd, 0xba, 0x01],
} as const
const I32 = 0x7f
const V128 = 0x7b

function leb(n: number): number[] {
  const out: number[] = []
  do {
    let byte = n & 0x7f
    n >>>= 7
    if (n !== 0) byte |= 0x80
    out.push(byte)
  } while (n !== 0)
  return out
}

const get = (i: number) => [op.localGet, i]
const set = (i: number) => [op.localSet, i]
const tee = (i: number) => [op.localTee, i]
const i32 = (n: number) => [op.i32Const, ...signedLeb(n)]
/** v128.load, 16-byte aligned, at a constant offset. */
const load = (offset: number) => [...simd.v128Load, 4, ...leb(offset)]

function signedLeb(n: number): number[] {
  const out: number[] = []
  for (;;) {
    const byte = n & 0x7f
    n >>= 7
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) return [...out, byte]
    out.push(byte | 0x80)
  }
}

// Parameters, then locals, by index.
const PROBES = 0, ROWS = 1, COUNT = 2, STRIDE = 3, OUT = 4, P = 5, LEFT = 6, ROW = 7, LO = 8, HI = 9, ACC = 10

/** The body of scan<probes>: one accumulator per probe, so 8 probes' accumulators and a row's two halves fit the 16 SIMD registers. */
function scanBody(probes: number): number[] {
  const turn = unroll(probes)
  const accs = Array.from({ length: probes }, (_, k) => ACC + k)
  const zero = [...simd.v128Const, ...new Array<number>(16).fill(0)]
  return [
    2, 2, I32, 3 + probes, V128, // locals: P, LEFT; ROW, LO, HI and the accumulators
    op.block, op.void,
    ...get(COUNT), op.i32Eqz, op.brIf, 0,
    op.loop, op.void, // each row
    ...accs.flatMap((acc) => [...zero, ...set(acc)]),
    ...get(PROBES), ...set(P), ...get(STRIDE), ...set(LEFT),
    op.loop, op.void, // each turn of `turn` blocks of 16 values
    ...Array.from({ length: turn }, (_, u) => [
      ...get(ROWS), ...load(PROBE_BLOCK * u), ...tee(ROW), ...simd.extendLowI8, ...set(LO),
      ...get(ROW), ...simd.extendHighI8, ...set(HI),
      ...accs.flatMap((acc, p) => {
        const at = 32 * (u * probes + p)
        return [
          ...get(acc),
          ...get(LO), ...get(P), ...load(at), ...simd.i32x4DotI16,
          ...get(HI), ...get(P), ...load(at + 16), ...simd.i32x4DotI16,
          ...simd.i32x4Add, ...simd.i32x4Add, ...set(acc),
        ]
      }),
    ]).flat(),
    ...get(P), ...i32(32 * probes * turn), op.i32Add, ...set(P),
    ...get(ROWS), ...i32(PROBE_BLOCK * turn), op.i32Add, ...set(ROWS),
    ...get(LEFT), ...i32(PROBE_BLOCK * turn), op.i32Sub, ...tee(LEFT), op.brIf, 0,
    op.end,
    ...accs.flatMap((acc, p) => [
      ...get(OUT),
      ...[0, 1, 2, 3].flatMap((lane) => [...get(acc), ...simd.i32x4ExtractLane, lane, ...(lane > 0 ? [op.i32Add] : [])]),
      op.i32Store, 2, ...leb(4 * p),
    ]),
    ...get(OUT), ...i32(4 * probes), op.i32Add, ...set(OUT),
    ...get(COUNT), ...i32(1), op.i32Sub, ...tee(COUNT), op.brIf, 0,
    op.end,
    op.end,
    op.end,
  ]
}

const section = (id: number, bytes: number[]) => [id, ...leb(bytes.length), ...bytes]
const name = (text: string) => [text.length, ...Buffer.from(text, 'ascii')]
const vector = (items: number[][]) => [...leb(items.length), ...items.flat()]

const counts = Array.from({ length: MAX_PROBES }, (_, i) => i + 1)
const bodies = counts.map((probes) => {
  const body = scanBody(probes)
  return [...leb(body.length), ...body]
})
const MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  ...section(1, [1, 0x60, 5, I32, I32, I32, I32, I32, 0]), // type 0: (i32 × 5) -> ()
  ...section(2, vector([[...name('env'), ...name('memory'), 0x02, 0x03, ...leb(1), ...leb(65536)]])), // shared memory, 1 page to 4 GB
  ...section(3, vector(counts.map(() => [0]))),
  ...section(7, vector(counts.map((probes) => [...name(`scan${probes}`), 0x00, probes - 1]))),
  ...section(10, vector(bodies)),
])

/** The part of the WebAssembly global used here (@types/node 20 does not declare it). */
export interface WasmMemory {
  readonly buffer: SharedArrayBuffer
  grow(pages: number): number
}
interface Wasm {
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object, imports: object) => { exports: unknown }
  Memory: new (descriptor: { initial: number; maximum: number; shared: true }) => WasmMemory
}
const wasm = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly
let compiled: object | undefined

export const WASM_PAGE = 65536

/** A shared memory the kernel can scan: it reserves address space up to 4 GB and commits what is grown. */
function createKernelMemory(): WasmMemory {
  return new wasm.Memory({ initial: 1, maximum: 65536, shared: true })
}

/** The compiled module (worker threads instantiate it on the same memory). */
function kernelModule(): object {
  compiled ??= new wasm.Module(MODULE)
  return compiled
}

/** A kernel instance over `memory` (one per thread; all may share one memory). */
export function createDotKernel(memory: WasmMemory = createKernelMemory()): DotKernel {
  const instance = new wasm.Instance(kernelModule(), { env: { memory } })
  const exports = instance.exports as Record<string, ScanFunction>
  return { memory, scan: counts.map((probes) => exports[`scan${probes}`]!) }
}
