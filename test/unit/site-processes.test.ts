import { describe, expect, it } from 'vitest'
import { run } from '../../electron/site/processes'

describe('run: a command to its end', () => {
  it('gives the exit code and output of a command that exits without reading its input (its closed pipe is no crash)', async () => {
    // More input than a pipe holds: the writer meets the closed pipe (EPIPE) once the command has exited.
    const escaped: unknown[] = []
    const keep = (error: unknown) => escaped.push(error)
    process.on('uncaughtException', keep)
    try {
      const result = await run('sh', ['-c', 'echo done'], { input: 'x'.repeat(4 << 20) })
      await new Promise((resolve) => setImmediate(resolve))
      expect(result).toEqual({ code: 0, output: 'done\n' })
      expect(escaped).toEqual([])
    } finally {
      process.off('uncaughtException', keep)
    }
  })
})
