import { parentPort } from 'node:worker_threads'
import { createDotKernel, type DotKernel } from './dot-kernel'
import { roundTemplates } from './quantize'
import type { ScanWorkerJob, ScanWorkerReply } from './scan-protocol'

/** One identify scan thread: scores a slice of the shared rows, or rounds loaded templates into them. */
const kernels = new Map<number, DotKernel>()

function kernelFor(job: { memoryId: number; memory?: DotKernel['memory'] }): DotKernel {
  let kernel = kernels.get(job.memoryId)
  if (!kernel) {
    if (!job.memory) throw new Error(`memory ${job.memoryId} was never sent to this thread`)
    kernel = createDotKernel(job.memory)
    kernels.set(job.memoryId, kernel)
  }
  return kernel
}

parentPort!.on('message', (job: ScanWorkerJob) => {
  if (job.kind === 'release') return void kernels.delete(job.memoryId)
  let reply: ScanWorkerReply
  try {
    if (job.kind === 'scan') {
      kernelFor(job).scan[job.probes - 1]!(job.probesAt, job.rowsAt, job.count, job.stride, job.outAt)
      reply = { id: job.id }
    } else {
      reply = { id: job.id, loaded: roundTemplates(new Int8Array(kernelFor(job).memory.buffer), job) }
    }
  } catch (error) {
    reply = { id: job.id, error: error instanceof Error ? error.message : String(error) }
  }
  const loaded = 'loaded' in reply ? reply.loaded : undefined
  parentPort!.postMessage(reply, loaded ? [loaded.scales.buffer as ArrayBuffer, loaded.errors.buffer as ArrayBuffer, loaded.lengths.buffer as ArrayBuffer] : [])
})
