import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * Which file a face worker thread starts from. From the .ts sources (tsx, vitest) it is the small JS
 * bootstrap that registers tsx inside the new thread. In electron-vite's bundle (out/main/engine.js)
 * it is a `face-worker.js` chunk next to the bundle when the build emits one (an extra rolldown
 * input `face-worker: electron/engine/face/worker.ts`); without it, a dev build falls back to the
 * sources beside out/. Paths go through a variable so the bundler leaves them alone.
 */
export function faceWorkerEntry(): URL {
  const here = import.meta.url
  const near = (relative: string) => new URL(relative, here)
  if (here.endsWith('.ts')) return near('./worker-bootstrap.mjs')
  const candidates = ['./face-worker.js', '../../electron/engine/face/worker-bootstrap.mjs'].map(near)
  const found = candidates.find((url) => existsSync(fileURLToPath(url)))
  if (!found) throw new Error(`face worker entry not found (looked for ${candidates.map((u) => fileURLToPath(u)).join(', ')})`)
  return found
}
