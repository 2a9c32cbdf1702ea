import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

// Tests load renderer code, which imports the shared contract as @shared/… (as in electron.vite.config.ts).
const alias = { '@shared': resolve(import.meta.dirname, 'electron/shared') }

// Native modules (keytar, later better-sqlite3) want real processes, hence the forks pool.
const project = (name: string, timeout: number) => ({
  resolve: { alias },
  test: { name, include: [`test/${name}/**/*.test.ts`], environment: 'node', pool: 'forks' as const, testTimeout: timeout, hookTimeout: timeout },
})

/**
 * Files that run for minutes (a site's failovers, stand-in servers), longest first. On a clean
 * clone vitest has no timings cached and starts the largest files first: one of these started late
 * keeps a worker busy long after the other has finished (CI's keychain step 207 s → 188 s here).
 */
const LONG_RUNNING = ['test/keychain/site-failover.test.ts', 'test/keychain/remote-standin.test.ts', 'test/integration/engine-liveness.test.ts', 'test/integration/outbox-faults.test.ts']
const longRank = (file: TestSpecification): number => {
  const at = LONG_RUNNING.findIndex((path) => file.moduleId.endsWith(path))
  return at < 0 ? LONG_RUNNING.length : at
}

/** vitest's own order (projects in turn, timings when cached), with each project's long-running files first. */
class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const projectAt = new Map<string, number>()
    for (const file of sorted) if (!projectAt.has(file.project.name)) projectAt.set(file.project.name, projectAt.size)
    // Array.prototype.sort is stable: within a rank, vitest's own order stands.
    return sorted.sort((a, b) => projectAt.get(a.project.name)! - projectAt.get(b.project.name)! || longRank(a) - longRank(b))
  }
}

export default defineConfig({
  test: {
    // One test file per core and one more, not vitest's default of one fewer: most files wait on
    // servers, child processes and sockets more than they compute (measured on 2 cores: unit +
    // integration 242 s with two files at a time, 220 s with three). `npm run test:keychain` runs
    // two: with three, the failover drill beside two other files failed in two CI runs here.
    maxWorkers: availableParallelism() + 1,
    sequence: { sequencer: LongFirstSequencer },
    // fuzz: the limit only stops a hung run; the suite itself asserts per-request times, not its total.
    projects: [project('unit', 20_000), project('integration', 60_000), project('keychain', 30_000), project('fuzz', 300_000)],
  },
})
