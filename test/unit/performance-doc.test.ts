import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { docFile, introFile, renderPerformanceDoc, type SectionResult } from '../bench/lib/performance-doc'
import { row, thisMachine } from '../bench/lib/report'
import { projectRoot } from '../support/process'

// docs/performance.md is what `npm run bench` writes: its fixed text, then each section's last
// full result with the machine and the date it was measured on. No figure is typed by hand.

const machine = { cpu: 'Test CPU @ 2.0GHz', cores: 2, memoryGiB: 7.8, node: '20.19.0', os: 'Linux 6.1.0 (linux/x64)' }
const result = (section: string, date: string, met: boolean): SectionResult => ({
  section,
  date,
  machine,
  rows: [row(section, 'p50', 12.5, 'ms', { name: 'floor', value: 10, unit: 'ms' }, { target: { text: '<= 1.2x floor', met } })],
})

describe('docs/performance.md', () => {
  it('puts each section after the fixed text, in the bench order, with its machine and date', () => {
    const doc = renderPerformanceDoc('# Performance\n\nintro\n', [result('load', '2026-05-02T10:00:00.000Z', false), result('identify', '2026-05-01T09:00:00.000Z', true)], ['identify', 'load'])
    expect(doc.startsWith('# Performance\n\nintro\n\n## Results\n')).toBe(true)
    expect(doc.indexOf('### identify')).toBeLessThan(doc.indexOf('### load'))
    expect(doc).toContain('Measured 2026-05-01 (2026-05-01T09:00:00.000Z) on Test CPU @ 2.0GHz, 2 cores, 7.8 GiB memory, Node 20.19.0, Linux 6.1.0 (linux/x64).')
    expect(doc).toContain('| identify | p50 | 12.5 ms | floor: 10.0 ms | 1.25x | met: <= 1.2x floor |  |')
    expect(doc).toContain('## Targets missed\n\n- load: p50 (<= 1.2x floor)\n')
  })

  it('says so when no full run is recorded', () => {
    expect(renderPerformanceDoc('# Performance\n', [], ['identify'])).toContain('No full run is recorded yet')
  })

  it('describes this machine', () => {
    const here = thisMachine()
    expect(here.cores).toBeGreaterThan(0)
    expect(here.memoryGiB).toBeGreaterThan(0)
    expect(here.node).toBe(process.versions.node)
  })

  it('is the generator’s output: the committed page starts with the fixed text, untouched', () => {
    const intro = readFileSync(introFile(projectRoot), 'utf8').trimEnd()
    expect(readFileSync(docFile(projectRoot), 'utf8').startsWith(`${intro}\n\n## Results\n`)).toBe(true)
  })
})
