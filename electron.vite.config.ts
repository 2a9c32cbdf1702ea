import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'
import { faceAssets } from './scripts/face-assets-plugin'

export default defineConfig({
  main: {
    build: {
      rolldownOptions: {
        input: {
          index: resolve(import.meta.dirname, 'electron/main/index.ts'),
          // Forked as a utilityProcess by main; the web host runs the same file from source.
          engine: resolve(import.meta.dirname, 'electron/engine/cli.ts'),
          // The engine's face worker threads start from this chunk (see engine/worker-entry.ts).
          'face-worker': resolve(import.meta.dirname, 'electron/engine/face/worker.ts'),
          // The identify cache's scan and load threads (see engine/bio/scan-pool.ts).
          'scan-worker': resolve(import.meta.dirname, 'electron/engine/bio/scan-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload can require nothing but 'electron': bundle everything, as CommonJS.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(import.meta.dirname, 'electron/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'renderer',
    // The renderer imports the shared contract as @shared/… (the same path in tsconfig.base.json and vitest.config.ts).
    resolve: { alias: { '@shared': resolve(import.meta.dirname, 'electron/shared') } },
    plugins: [react(), faceAssets()],
    build: {
      // electron-vite leaves the renderer unminified by default; minified, first-load JS is ~2.3x smaller.
      minify: true,
      // The one chunk above Vite's 500 kB default is the face detector: @vladmandic/human's prebuilt
      // human.esm.js (TensorFlow.js inside), a single module of ~1.56 MB minified that camera/detector.ts
      // loads on demand. manualChunks cannot split one module, so the limit sits just above it; every
      // other chunk is kept under 500 kB by test/integration/npm-start.test.ts.
      chunkSizeWarningLimit: 1600,
      rolldownOptions: {
        input: {
          index: resolve(import.meta.dirname, 'renderer/index.html'),
          // GuidedCapture on its own page, for test/e2e/capture.spec.ts and the capture benchmark.
          'capture-harness': resolve(import.meta.dirname, 'renderer/capture-harness.html'),
        },
        // React, its DOM and i18next in a chunk of their own: they change only with the packages,
        // and the page's own chunk stays under 500 kB as the screens grow.
        output: { codeSplitting: { groups: [{ name: 'vendor', test: /node_modules[\\/](react|react-dom|scheduler|i18next|react-i18next)[\\/]/ }] } },
      },
    },
  },
})
