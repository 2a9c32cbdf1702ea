import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * Which file one of the engine's worker threads starts from. From the .ts sources (tsx, vitest) it
 * is a small JS bootstrap that registers tsx inside the new thread (`source`, relative to this
 * folder). In electron-vite's bundle (out/main/engine.js) it is the `<chunk>.js` chunk next to the
 * bundle (an extra rolldown input in electron.vite.config.ts); without it, a dev build falls back to
 * the sources beside out/. Paths go through a variable so the bundler leaves them alone.
 */
export function workerEntry(chunk: string, source: string): URL {
  const here = import.meta.url
  const near = (relative: string) => new URL(relative, here)
  if (here.endsWith('.ts')) return near(source)
  const candidates = [`./${chunk}.js`, `../../electron/engine/${source}`].map(near)
  const found = candidates.find((url) => existsSync(fileURLToPath(url)))
  if (!found) throw new Error(`worker entry not found (looked for ${candidates.map((u) => fileURLToPath(u)).join(', ')})`)
  return found
}
