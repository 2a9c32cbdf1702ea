import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, release, totalmem, type } from 'node:os'
import { dirname } from 'node:path'

export type Unit = 'ms' | 'items/s' | 'req/s' | 'fps' | 'MB' | 'KB' | 'searches' | '%'

/**
 * One figure of a benchmark, beside the baseline it is judged against. The baseline is measured in
 * the same run (machines are shared and noisy), so the ratio is the number to compare across runs.
 */
export interface BenchRow {
  section: string
  metric: string
  value: number
  unit: Unit
  baseline: { name: string; value: number; unit: Unit } | null
  /** value / baseline.value, when there is a baseline. */
  ratio: number | null
  /** The target set for this figure, and whether this run met it. */
  target?: { text: string; met: boolean }
  note?: string
}

export function row(
  section: string,
  metric: string,
  value: number,
  unit: Unit,
  baseline: BenchRow['baseline'],
  extra: { target?: BenchRow['target']; note?: string } = {},
): BenchRow {
  const ratio = baseline && baseline.value !== 0 ? value / baseline.value : null
  return { section, metric, value, unit, baseline, ratio, ...extra }
}

/** The machine a section was measured on, as docs/performance.md names it. */
export interface Machine {
  cpu: string
  cores: number
  memoryGiB: number
  node: string
  os: string
}

export function thisMachine(): Machine {
  const cores = cpus()
  return {
    cpu: cores[0]?.model.trim() || 'unknown CPU',
    cores: cores.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.versions.node,
    os: `${type()} ${release()} (${process.platform}/${process.arch})`,
  }
}

function fmt(value: number): string {
  if (!Number.isFinite(value)) return String(value)
  const abs = Math.abs(value)
  return abs >= 100 ? value.toFixed(0) : abs >= 10 ? value.toFixed(1) : abs >= 1 ? value.toFixed(2) : value.toFixed(3)
}

/** A Markdown table: the console shows it, bench-results/*.md keep it, and docs/performance.md is made of them. */
export function markdownTable(rows: BenchRow[]): string {
  const lines = ['| section | metric | value | baseline (same run) | ratio | target | note |', '|---|---|---:|---|---:|---|---|']
  for (const r of rows) {
    const baseline = r.baseline ? `${r.baseline.name}: ${fmt(r.baseline.value)} ${r.baseline.unit}` : '—'
    const target = r.target ? `${r.target.met ? 'met' : 'MISSED'}: ${r.target.text}` : ''
    lines.push(`| ${r.section} | ${r.metric} | ${fmt(r.value)} ${r.unit} | ${baseline} | ${r.ratio === null ? '—' : `${r.ratio.toFixed(2)}x`} | ${target} | ${r.note ?? ''} |`)
  }
  return lines.join('\n')
}

export function writeReport(file: string, report: { quick: boolean; sections: string[]; rows: BenchRow[]; errors: Array<{ section: string; error: string }> }): void {
  mkdirSync(dirname(file), { recursive: true })
  const machine = { ...thisMachine(), platform: process.platform, arch: process.arch }
  writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), machine, ...report }, null, 2)}\n`)
}
