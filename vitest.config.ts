import { defineConfig } from 'vitest/config'

// Native modules (keytar, later better-sqlite3) want real processes, hence the forks pool.
const project = (name: string, timeout: number) => ({
  test: { name, include: [`test/${name}/**/*.test.ts`], environment: 'node', pool: 'forks' as const, testTimeout: timeout, hookTimeout: timeout },
})

export default defineConfig({
  test: {
    // fuzz: the limit only stops a hung run; the suite itself asserts per-request times, not its total.
    projects: [project('unit', 20_000), project('integration', 60_000), project('keychain', 30_000), project('fuzz', 300_000)],
  },
})
