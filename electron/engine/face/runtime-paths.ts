import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/**
 * Where the model packages live on disk. Everything is resolved through Node's module resolution
 * from this file, so it works from the .ts sources, from electron-vite's bundle (which keeps
 * dependencies external) and from any working directory. Nothing is ever fetched from a network.
 */
// Not named `require`: electron-vite's ESM output declares its own `require` shim.
const resolveFromHere = createRequire(import.meta.url)

/** Root of a package whose `exports` hide package.json: climb from its resolved entry (dist/x.js). */
function packageRoot(name: string): string {
  return dirname(dirname(resolveFromHere.resolve(name)))
}

export const humanDir = (): string => packageRoot('@vladmandic/human')
export const humanModelsDir = (): string => join(humanDir(), 'models')
export const faceApiDir = (): string => packageRoot('@vladmandic/face-api')
export const faceApiModelsDir = (): string => join(faceApiDir(), 'model')

/** tfjs-backend-wasm's dist/ (the .wasm binaries), with the trailing slash tfjs expects of a prefix. */
export const tfjsWasmDir = (): string => join(dirname(resolveFromHere.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist') + '/'

/** Loads a CommonJS bundle by absolute path (the node-wasm builds of Human and face-api). */
export function requireByPath(path: string): unknown {
  return resolveFromHere(path)
}
