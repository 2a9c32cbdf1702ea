import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { projectRoot } from '../../support/process'

export interface Size {
  raw: number
  gzip: number
  files: string[]
}

/** Raw and gzip bytes (zlib's default level, as a web server would send them) of files in `dir`. */
export function sizeOf(dir: string, files: string[]): Size {
  let raw = 0
  let gzip = 0
  for (const file of files) {
    const bytes = readFileSync(join(dir, file))
    raw += bytes.length
    gzip += gzipSync(bytes).length
  }
  return { raw, gzip, files }
}

/** Sibling chunks a chunk refers to ("./name.js", any quotes: static imports, dynamic imports, preload maps). */
function referencedChunks(dir: string, file: string): string[] {
  const text = readFileSync(join(dir, file), 'utf8')
  return [...new Set([...text.matchAll(/["'`]\.\/([\w.-]+\.js)["'`]/g)].map((m) => `assets/${m[1]}`))]
}

export interface AppBundle {
  /** JS the kiosk page loads before its first screen: index.html's entry and its module preloads. */
  firstLoadJs: Size
  firstLoadCss: Size
  /** JS the kiosk loads later (dynamic imports reachable from the entry: the face detector). */
  lazyJs: Size
}

/** The kiosk page's own files in out/renderer, found from index.html (the capture harness is left out). */
export function appBundle(rendererDir: string): AppBundle {
  const html = readFileSync(join(rendererDir, 'index.html'), 'utf8')
  const attr = (pattern: RegExp) => [...html.matchAll(pattern)].map((m) => m[1]!.replace(/^\.\//, ''))
  const first = new Set([...attr(/<script[^>]+src="([^"]+\.js)"/g), ...attr(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)])
  const css = attr(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)
  if (first.size === 0) throw new Error(`no script found in ${rendererDir}/index.html`)
  const reachable = new Set(first)
  for (const file of reachable) for (const next of referencedChunks(rendererDir, file)) reachable.add(next)
  const lazy = [...reachable].filter((file) => !first.has(file))
  return { firstLoadJs: sizeOf(rendererDir, [...first]), firstLoadCss: sizeOf(rendererDir, css), lazyJs: sizeOf(rendererDir, lazy) }
}

/** Every file under a folder of out/renderer (e.g. models/, wasm/), as paths relative to `rendererDir`. */
export function filesUnder(rendererDir: string, folder: string): string[] {
  return readdirSync(join(rendererDir, folder))
    .map((name) => `${folder}/${name}`)
    .filter((file) => statSync(join(rendererDir, file)).isFile())
}

/**
 * The floor for the kiosk's first load: a minimal React + react-dom + zustand app (one store, one
 * component rendered into #root) built by the same Vite as the app, as a production build. No app
 * can use these libraries for less; what the kiosk adds on top is its own code and other libraries.
 */
export async function floorBundle(): Promise<Size> {
  const { build } = await import('vite')
  // Inside the project, so the build resolves react from its node_modules.
  const root = join(projectRoot, 'node_modules/.cache/bench-floor')
  rmSync(root, { recursive: true, force: true })
  mkdirSync(root, { recursive: true })
  writeFileSync(join(root, 'index.html'), '<!doctype html><html><body><div id="root"></div><script type="module" src="./main.js"></script></body></html>')
  writeFileSync(
    join(root, 'main.js'),
    `import { createElement, StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { create } from 'zustand'
const useCount = create((set) => ({ count: 0, add: () => set((s) => ({ count: s.count + 1 })) }))
function App() {
  const { count, add } = useCount()
  return createElement('button', { onClick: add }, 'Welcome ', count)
}
createRoot(document.getElementById('root')).render(createElement(StrictMode, null, createElement(App)))
`,
  )
  const outDir = join(root, 'dist')
  await build({ root, configFile: false, logLevel: 'silent', build: { outDir, emptyOutDir: true } })
  const assets = readdirSync(join(outDir, 'assets')).filter((name) => name.endsWith('.js'))
  if (assets.length === 0) throw new Error('the floor build wrote no JavaScript')
  return sizeOf(join(outDir, 'assets'), assets)
}
