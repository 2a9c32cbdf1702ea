/**
 * The identify scan's inner loop in WebAssembly SIMD: the dot products of one probe against many
 * rows, four floats per instruction with four accumulators. A plain JS loop over 100k × 1024 floats
 * takes ~60 ms here (one multiply-add at a time, in float64); this takes ~15 ms. The module is a
 * few hundred bytes, assembled below from its instructions so it can be read and reviewed; its
 * results are checked against the JS dot product in the unit tests.
 *
 *   scan(probe, rows, count, stride, out):   (byte offsets into the exported memory; stride in floats)
 *     for each of `count` rows, starting at `rows`, `stride` floats apart:
 *       out[row] = Σ probe[i] × row[i], i < stride          (stride must be a positive multiple of 16)
 */

export interface DotKernel {
  /** The kernel's own memory: grow it, then re-take views (growing detaches the old ArrayBuffer). */
  memory: { readonly buffer: ArrayBuffer; grow(pages: number): number }
  scan(probe: number, rows: number, count: number, stride: number, out: number): void
}

/** Floats handled per inner-loop iteration: 4 lanes × 4 accumulators. */
export const KERNEL_BLOCK = 16

const op = {
  block: 0x02, loop: 0x03, brIf: 0x0d, end: 0x0b, void: 0x40,
  localGet: 0x20, localSet: 0x21, localTee: 0x22,
  i32Const: 0x41, i32Eqz: 0x45, i32Add: 0x6a, i32Sub: 0x6b,
  f32Add: 0x92, f32Store: 0x38,
} as const
const simd = {
  v128Load: [0xfd, 0x00], v128Const: [0xfd, 0x0c], f32x4ExtractLane: [0xfd, 0x1f],
  f32x4Add: [0xfd, 0xe4, 0x01], f32x4Mul: [0xfd, 0xe6, 0x01],
} as const
const I32 = 0x7f
const V128 = 0x7b

// Parameters, then locals, by index.
const PROBE = 0, ROWS = 1, COUNT = 2, STRIDE = 3, OUT = 4, P = 5, LEFT = 6, ACC = [7, 8, 9, 10] as const

const get = (i: number) => [op.localGet, i]
const set = (i: number) => [op.localSet, i]
const tee = (i: number) => [op.localTee, i]
/** i32.const with a small signed LEB128 immediate (all constants here are in 0..63 or 64). */
const i32 = (n: number) => (n < 64 ? [op.i32Const, n] : [op.i32Const, 0x80 | (n & 0x7f), n >> 7])
/** v128.load, 16-byte aligned, at a constant offset. */
const load = (offset: number) => [...simd.v128Load, 4, offset]

const body = [
  op.block, op.void,
  ...get(COUNT), op.i32Eqz, op.brIf, 0,
  op.loop, op.void, // each row
  ...simd.v128Const, ...new Array<number>(16).fill(0), ...tee(ACC[0]), ...tee(ACC[1]), ...tee(ACC[2]), ...set(ACC[3]),
  ...get(PROBE), ...set(P), ...get(STRIDE), ...set(LEFT),
  op.loop, op.void, // each block of 16 floats: acc[k] += probe[4k..4k+3] × row[4k..4k+3]
  ...ACC.flatMap((acc, k) => [...get(acc), ...get(P), ...load(16 * k), ...get(ROWS), ...load(16 * k), ...simd.f32x4Mul, ...simd.f32x4Add, ...set(acc)]),
  ...get(P), ...i32(64), op.i32Add, ...set(P),
  ...get(ROWS), ...i32(64), op.i32Add, ...set(ROWS),
  ...get(LEFT), ...i32(KERNEL_BLOCK), op.i32Sub, ...tee(LEFT), op.brIf, 0,
  op.end,
  ...get(OUT), // address for the f32.store below
  ...get(ACC[0]), ...get(ACC[1]), ...simd.f32x4Add, ...get(ACC[2]), ...get(ACC[3]), ...simd.f32x4Add, ...simd.f32x4Add, ...set(ACC[0]),
  ...[0, 1, 2, 3].flatMap((lane) => [...get(ACC[0]), ...simd.f32x4ExtractLane, lane, ...(lane > 0 ? [op.f32Add] : [])]),
  op.f32Store, 2, 0,
  ...get(OUT), ...i32(4), op.i32Add, ...set(OUT),
  ...get(COUNT), ...i32(1), op.i32Sub, ...tee(COUNT), op.brIf, 0,
  op.end,
  op.end,
  op.end,
]

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
const section = (id: number, bytes: number[]) => [id, ...leb(bytes.length), ...bytes]
const name = (text: string) => [text.length, ...Buffer.from(text, 'ascii')]

const code = [2, 2, I32, 4, V128, ...body] // locals: 2 × i32 (P, LEFT), 4 × v128 (ACC)
const MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  ...section(1, [1, 0x60, 5, I32, I32, I32, I32, I32, 0]), // type: (i32 × 5) -> ()
  ...section(3, [1, 0]), // one function of that type
  ...section(5, [1, 0x00, 1]), // one memory, 1 page to start, no maximum
  ...section(7, [2, ...name('scan'), 0x00, 0, ...name('memory'), 0x02, 0]),
  ...section(10, [1, ...leb(code.length), ...code]),
])

/** The part of the WebAssembly global used here (@types/node 20 does not declare it). */
interface Wasm {
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object) => { exports: unknown }
}
const wasm = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly
let compiled: object | undefined

/** A fresh kernel instance with its own memory (one per cache). */
export function createDotKernel(): DotKernel {
  compiled ??= new wasm.Module(MODULE)
  const instance = new wasm.Instance(compiled)
  const { scan, memory } = instance.exports as unknown as DotKernel
  return { scan, memory }
}
