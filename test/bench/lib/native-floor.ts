import { spawn, spawnSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { KERNEL_BLOCK, ROW_RANGE } from '../../../electron/engine/bio/dot-kernel'
import { quantize } from '../../../electron/engine/bio/quantize'

const SOURCE = join(import.meta.dirname, '../native/int8-pass.c')

export interface NativeFloor {
  /** One pass over the rows; resolves with the pass's own time (ms), as the program measured it. */
  pass(): Promise<number>
  /** The int8 bytes one pass reads. */
  bytes: number
  stop(): void
}

/**
 * The identify floor: the C program in test/bench/native, built here with the machine's compiler,
 * over the same vectors rounded to int8 rows as the engine's cache rounds them.
 */
export async function startNativeFloor(vectors: Float32Array, dims: number, count: number): Promise<NativeFloor> {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-floor-'))
  try {
    const binary = join(dir, 'int8-pass')
    const compiler = ['cc', 'gcc', 'g++'].find((name) => spawnSync(name, ['--version']).status === 0)
    if (!compiler) throw new Error('no C compiler (scripts/setup.sh installs g++)')
    const built = spawnSync(compiler, [...(compiler === 'g++' ? ['-x', 'c'] : []), '-O3', '-march=native', '-o', binary, SOURCE], { encoding: 'utf8' })
    if (built.status !== 0) throw new Error(`building the floor failed: ${built.stderr}`)
    const stride = Math.ceil(dims / KERNEL_BLOCK) * KERNEL_BLOCK
    const rowsFile = join(dir, 'rows.bin')
    const fd = openSync(rowsFile, 'w')
    const chunk = new Int8Array(4096 * stride)
    for (let first = 0; first < count; first += 4096) {
      const rows = Math.min(4096, count - first)
      for (let r = 0; r < rows; r++) quantize(vectors.subarray((first + r) * dims, (first + r + 1) * dims), chunk.subarray(r * stride, (r + 1) * stride), ROW_RANGE)
      writeSync(fd, chunk, 0, rows * stride)
    }
    closeSync(fd)
    const child = spawn(binary, [rowsFile, String(count), String(stride)], { stdio: ['pipe', 'pipe', 'inherit'] })
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
    const stop = () => {
      child.kill()
      rmSync(dir, { recursive: true, force: true })
    }
    return {
      bytes: count * stride,
      async pass() {
        child.stdin.write('\n')
        const { value, done } = await lines.next()
        if (done) throw new Error('the floor program exited')
        return Number(String(value).split(' ')[0])
      },
      stop,
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw error
  }
}
