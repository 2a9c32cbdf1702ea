import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { projectRoot } from '../../support/process'

export const rendererDir = join(projectRoot, 'out/renderer')

let building: Promise<void> | null = null

/**
 * `electron-vite build`, once per benchmark run (the startup and renderer sections share it): the
 * figures must describe the current source, and the build takes seconds. Async, so a section's
 * timers are not held up by a blocked event loop.
 */
export function buildRendererOnce(log: (line: string) => void): Promise<void> {
  building ??= new Promise<void>((resolve, reject) => {
    log('building the app (electron-vite build)…')
    const started = Date.now()
    const child = spawn(join(projectRoot, 'node_modules/.bin/electron-vite'), ['build', '--logLevel', 'warn'], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] })
    const output: string[] = []
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()))
    child.once('error', reject)
    child.once('exit', (code) => {
      if (code === 0) {
        log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`)
        resolve()
      } else reject(new Error(`electron-vite build exited with ${code}:\n${output.join('')}`))
    })
  })
  return building
}
