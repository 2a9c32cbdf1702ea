import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { projectRoot } from '../support/process'
import { saveSectionResult, writePerformanceDoc } from './lib/performance-doc'
import { markdownTable, thisMachine, writeReport, type BenchRow } from './lib/report'
import { runLanes, splitLanes } from './lib/lanes'
import type { BenchSection } from './lib/section'

/**
 * npm run bench [-- --quick [--jobs 2]] [-- --only identify,load] [-- --write-doc]: runs the benchmark
 * sections one after another (a quick run's in `--jobs` lanes side by side: lib/lanes.ts), prints
 * one table and writes bench-results/latest.json. Every figure stands beside a baseline measured in
 * the same run. Missed targets are reported, never failed on; only a benchmark that breaks makes
 * the exit code non-zero.
 *
 * A full (not quick) run also keeps each section that finished in docs/performance/ with the
 * machine and the date, and writes docs/performance.md from those files, so the docs' figures are
 * always a measurement's. A quick run is CI's proof that the benchmarks work: its small N says
 * nothing about speed, so it leaves both alone. --write-doc only rewrites docs/performance.md.
 */
const SECTIONS: Record<string, () => Promise<BenchSection>> = {
  identify: async () => (await import('./sections/identify')).identify,
  pipeline: async () => (await import('./sections/pipeline')).pipeline,
  enrollment: async () => (await import('./sections/enrollment')).enrollment,
  outbox: async () => (await import('./sections/outbox')).outbox,
  startup: async () => (await import('./sections/startup')).startup,
  renderer: async () => (await import('./sections/renderer')).renderer,
  capture: async () => (await import('./sections/capture')).capture,
  load: async () => (await import('./sections/load')).load,
  metrics: async () => (await import('./sections/metrics')).metrics,
  bridge: async () => (await import('./sections/bridge')).bridge,
  hostile: async () => (await import('./sections/hostile')).hostile,
  liveness: async () => (await import('./sections/liveness')).liveness,
  replica: async () => (await import('./sections/replica')).replica,
  site: async () => (await import('./sections/site')).site,
  visits: async () => (await import('./sections/visits')).visits,
  frontdesk: async () => (await import('./sections/frontdesk')).frontdesk,
  overview: async () => (await import('./sections/overview')).overview,
  failover: async () => (await import('./sections/failover')).failover,
}

const args = process.argv.slice(2)
if (args.includes('--write-doc')) {
  console.log(`wrote ${writePerformanceDoc(projectRoot, Object.keys(SECTIONS))}`)
  process.exit()
}
const quick = args.includes('--quick')
const onlyAt = args.indexOf('--only')
const only = onlyAt >= 0 ? (args[onlyAt + 1] ?? '').split(',').filter(Boolean) : Object.keys(SECTIONS)
const unknown = only.filter((name) => !SECTIONS[name])
if (unknown.length > 0) {
  console.error(`unknown section(s): ${unknown.join(', ')}; known: ${Object.keys(SECTIONS).join(', ')}`)
  process.exit(2)
}

const valueOf = (flag: string): string | undefined => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined)
const jobs = Number(valueOf('--jobs') ?? 1)
if (!Number.isInteger(jobs) || jobs < 1 || (jobs > 1 && !quick)) {
  console.error('--jobs takes a whole number, and more than 1 only with --quick (a full run measures one section at a time)')
  process.exit(2)
}
const file = resolve(projectRoot, 'bench-results', valueOf('--report') ?? (quick ? 'quick.json' : 'latest.json'))

const rows: BenchRow[] = []
const errors: Array<{ section: string; error: string }> = []
if (jobs > 1) {
  const lanes = splitLanes(only, jobs)
  console.log(`${lanes.length} lanes side by side: ${lanes.map((lane) => lane.join(', ')).join(' | ')}`)
  const merged = await runLanes(lanes, (lane) => file.replace(/\.json$/, `.lane-${lane + 1}.json`))
  const at = (row: BenchRow) => (only.includes(row.section) ? only.indexOf(row.section) : only.length)
  rows.push(...merged.rows.sort((a, b) => at(a) - at(b)))
  errors.push(...merged.errors)
}
for (const name of jobs > 1 ? [] : only) {
  const started = Date.now()
  console.log(`\n== ${name}${quick ? ' (quick)' : ''}`)
  try {
    const section = await SECTIONS[name]!()
    const result = await section.run({ quick, log: (line) => console.log(`   ${line}`) })
    rows.push(...result)
    if (!quick) saveSectionResult(projectRoot, { section: name, date: new Date().toISOString(), machine: thisMachine(), rows: result })
    console.log(markdownTable(result))
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error)
    errors.push({ section: name, error: message })
    console.error(`section ${name} failed: ${message}`)
  }
  console.log(`   (${((Date.now() - started) / 1000).toFixed(1)} s)`)
}

writeReport(file, { quick, sections: only, rows, errors })
writeFileSync(file.replace(/\.json$/, '.md'), `${markdownTable(rows)}\n`)
console.log(`\n${markdownTable(rows)}\n\nwrote ${file} (and the table as .md)`)
if (!quick) console.log(`wrote ${writePerformanceDoc(projectRoot, Object.keys(SECTIONS))} (from docs/performance/)`)
const missed = rows.filter((r) => r.target && !r.target.met)
if (missed.length > 0) console.log(`targets missed (reported, not failed): ${missed.map((r) => `${r.section}/${r.metric}`).join('; ')}`)
if (errors.length > 0) {
  console.error(`${errors.length} section(s) failed: ${errors.map((e) => e.section).join(', ')}`)
  process.exitCode = 1
}
// Engines, workers and browsers are closed by their sections; anything left must not keep CI waiting.
process.exit()
