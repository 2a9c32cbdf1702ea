import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Plugin } from 'vite'

const require = createRequire(import.meta.url)
// The package exports no package.json; its Node entry lives in dist/.
const human = join(dirname(require.resolve('@vladmandic/human')), '..')
const wasm = join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist')

/** URL path in the renderer → file in node_modules: the face detector's models and tfjs's WASM binaries. */
const assets: Record<string, string> = Object.fromEntries([
  // iris: the liveness challenge runs it so the page sees a blink as the engine does.
  ...['blazeface.json', 'blazeface.bin', 'facemesh.json', 'facemesh.bin', 'iris.json', 'iris.bin'].map((name) => [`models/${name}`, join(human, 'models', name)]),
  ...['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm-threaded-simd.wasm'].map((name) => [`wasm/${name}`, join(wasm, name)]),
])

const types: Record<string, string> = { json: 'application/json', bin: 'application/octet-stream', wasm: 'application/wasm' }

/**
 * Serves the renderer's face-detection files from the app itself (never a CDN, so capture works
 * offline): copied into the build from the npm packages, and served by the dev server. The model
 * files are never committed.
 */
export function faceAssets(): Plugin {
  return {
    name: 'kiosk-face-assets',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const file = assets[(request.url ?? '').split('?')[0]!.replace(/^\//, '')]
        if (!file) return next()
        response.setHeader('content-type', types[file.split('.').pop()!] ?? 'application/octet-stream')
        response.end(readFileSync(file))
      })
    },
    generateBundle() {
      for (const [fileName, file] of Object.entries(assets)) this.emitFile({ type: 'asset', fileName, source: readFileSync(file) })
    },
  }
}
