import { describe, expect, it } from 'vitest'
import { splitLanes } from '../bench/lib/lanes'

describe("a quick bench's lanes", () => {
  const sections = ['identify', 'pipeline', 'capture', 'hostile', 'liveness', 'site', 'frontdesk', 'overview', 'failover']

  it('runs every section once, in the runner’s order within each lane', () => {
    const lanes = splitLanes(sections, 2)
    expect(lanes).toHaveLength(2)
    expect(lanes.flat().sort()).toEqual([...sections].sort())
    for (const lane of lanes) expect(lane).toEqual(sections.filter((name) => lane.includes(name)))
  })

  it('puts the long sections apart: the two longest never share a lane, and no lane is idle', () => {
    const lanes = splitLanes(sections, 2)
    expect(lanes.find((lane) => lane.includes('frontdesk'))).not.toContain('failover')
    expect(lanes.every((lane) => lane.length > 0)).toBe(true)
  })

  it('one job, or fewer sections than jobs: no empty lane', () => {
    expect(splitLanes(sections, 1)).toEqual([sections])
    expect(splitLanes(['identify'], 2)).toEqual([['identify']])
  })
})
