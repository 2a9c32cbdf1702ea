import { spawn } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { projectRoot, tsxArgs } from '../../support/process'
import type { BenchRow } from './report'

/**
 * A quick run's sections side by side, in `jobs` processes of the runner, each with its own share.
 * Only a quick run does this: it proves the benchmarks work and says nothing about speed, and alone
 * its sections left the two cores idle 43% of CI's five minutes (waiting on failovers, servers
 * starting, clips playing). A full run measures, one section at a time.
 */

/** About how long each section's quick run takes (seconds, CI on 2 cores): the longest go first, each to the least loaded lane. */
const QUICK_SECONDS: Record<string, number> = { failover: 40, frontdesk: 42, liveness: 37, hostile: 23, site: 23, capture: 17, pipeline: 13, load: 12, startup: 12, outbox: 11, replica: 11 }
const DEFAULT_SECONDS = 8

export function splitLanes(sections: readonly string[], jobs: number): string[][] {
  const lanes = Array.from({ length: Math.min(jobs, sections.length) }, () => ({ seconds: 0, sections: [] as string[] }))
  const seconds = (name: string) => QUICK_SECONDS[name] ?? DEFAULT_SECONDS
  for (const name of [...sections].sort((a, b) => seconds(b) - seconds(a))) {
    const lane = lanes.reduce((least, next) => (next.seconds < least.seconds ? next : least))
    lane.sections.push(name)
    lane.seconds += seconds(name)
  }
  // Within a lane, the sections in the runner's order.
  return lanes.map((lane) => sections.filter((name) => lane.sections.includes(name)))
}

export interface LaneReport {
  rows: BenchRow[]
  errors: Array<{ section: string; error: string }>
}

/** Runs each lane as `run.ts --quick --only <lane> --report <file>`, its lines prefixed with its number; the reports, merged. */
export async function runLanes(lanes: string[][], reportFile: (lane: number) => string): Promise<LaneReport> {
  const merged: LaneReport = { rows: [], errors: [] }
  await Promise.all(
    lanes.map(async (sections, i) => {
      rmSync(reportFile(i), { force: true })
      const [command, args] = tsxArgs('test/bench/run.ts', ['--quick', '--only', sections.join(','), '--report', reportFile(i)])
      const child = spawn(command, args, { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] })
      createInterface({ input: child.stdout }).on('line', (line) => console.log(`[${i + 1}] ${line}`))
      createInterface({ input: child.stderr }).on('line', (line) => console.error(`[${i + 1}] ${line}`))
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
      try {
        const report = JSON.parse(readFileSync(reportFile(i), 'utf8')) as LaneReport
        merged.rows.push(...report.rows)
        merged.errors.push(...report.errors)
        if (code !== 0 && report.errors.length === 0) merged.errors.push({ section: sections.join(','), error: `the lane's runner exited with ${code}` })
      } catch {
        merged.errors.push({ section: sections.join(','), error: `the lane's runner exited with ${code} and no report` })
      }
    }),
  )
  return merged
}
