import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { markdownTable, type BenchRow, type Machine } from './report'

/** One section's last full (not quick) result: what docs/performance.md's tables are made from. */
export interface SectionResult {
  section: string
  date: string
  machine: Machine
  rows: BenchRow[]
}

export function describeMachine(machine: Machine): string {
  return `${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB memory, Node ${machine.node}, ${machine.os}`
}

const sectionsFolder = (root: string) => join(root, 'docs', 'performance')

/** Keeps a section's full result for the page; a quick run's results never come here. */
export function saveSectionResult(root: string, result: SectionResult): void {
  mkdirSync(sectionsFolder(root), { recursive: true })
  writeFileSync(join(sectionsFolder(root), `${result.section}.json`), `${JSON.stringify(result, null, 2)}\n`)
}

export function readSectionResults(root: string): SectionResult[] {
  const folder = sectionsFolder(root)
  if (!existsSync(folder)) return []
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(folder, name), 'utf8')) as SectionResult)
}

/**
 * docs/performance.md: the fixed text, then one table per section in the bench's order, each with
 * the machine and the date it was measured on, then the targets this page's figures missed.
 */
export function renderPerformanceDoc(intro: string, results: SectionResult[], order: string[]): string {
  const rank = (section: string) => (order.includes(section) ? order.indexOf(section) : order.length)
  const sorted = [...results].sort((a, b) => rank(a.section) - rank(b.section) || a.section.localeCompare(b.section))
  const parts = [intro.trimEnd(), '', '## Results', '']
  if (sorted.length === 0) {
    parts.push('No full run is recorded yet: `npm run bench` (or `-- --only <sections>`) fills this part in.', '')
  }
  for (const result of sorted) {
    parts.push(`### ${result.section}`, '', `Measured ${result.date.slice(0, 10)} (${result.date}) on ${describeMachine(result.machine)}.`, '')
    parts.push(result.rows.length > 0 ? markdownTable(result.rows) : 'This section gave no rows.', '')
  }
  const missed = sorted.flatMap((result) => result.rows.filter((r) => r.target && !r.target.met).map((r) => `- ${r.section}: ${r.metric} (${r.target!.text})`))
  if (sorted.length > 0) {
    parts.push('## Targets missed', '', ...(missed.length > 0 ? missed : ['None in the runs above.']), '')
  }
  return `${parts.join('\n').trimEnd()}\n`
}

export const introFile = (root: string) => join(root, 'test', 'bench', 'performance-intro.md')
export const docFile = (root: string) => join(root, 'docs', 'performance.md')

export function writePerformanceDoc(root: string, order: string[]): string {
  const file = docFile(root)
  writeFileSync(file, renderPerformanceDoc(readFileSync(introFile(root), 'utf8'), readSectionResults(root), order))
  return file
}
