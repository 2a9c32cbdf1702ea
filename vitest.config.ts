import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'

// Tests load renderer code, which imports the shared contract as @shared/… (as in electron.vite.config.ts).
const alias = { '@shared': resolve(import.meta.dirname, 'electron/shared') }

// Native modules (keytar, later better-sqlite3) want real processes, hence the forks pool.
const project = (name: string, timeout: number) => ({
  resolve: { alias },
  test: { name, include: [`test/${name}/**/*.test.ts`], environment: 'node', pool: 'forks' as const, testTimeout: timeout, hookTimeout: timeout },
})

export default defineConfig({
  test: {
    // One test file per core, not vitest's default of one fewer: most files wait on servers, child
    // processes and sockets more than they compute, and on a 2-core machine the default is a single
    // file at a time (unit + integration 244 s → 156 s, keychain 151 s → 77 s, measured here).
    maxWorkers: availableParallelism(),
    // fuzz: the limit only stops a hung run; the suite itself asserts per-request times, not its total.
    projects: [project('unit', 20_000), project('integration', 60_000), project('keychain', 30_000), project('fuzz', 300_000)],
  },
})
