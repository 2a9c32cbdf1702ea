import { describe, expect, it } from 'vitest'
import { methodNames } from '../../electron/shared/contract'
import type { Handlers } from '../../electron/services/dispatch'
import { combine, handlerTable, type Feature } from '../../electron/services/features/feature'

const answer = async () => ({ ok: true as const })

describe('combining features', () => {
  it('merges handler tables, and refuses a method two features answer', () => {
    const a: Feature = { handlers: { wipeReplica: answer } }
    const b: Feature = { handlers: { rebuildCaches: answer } }
    expect(Object.keys(combine(a, b).handlers).sort()).toEqual(['rebuildCaches', 'wipeReplica'])
    expect(() => combine(a, b, { handlers: { wipeReplica: answer } })).toThrow(/two features answer wipeReplica/)
  })

  it('refuses a table that leaves a contract method unanswered, and accepts a complete one', () => {
    const all = Object.fromEntries(methodNames.map((method) => [method, answer])) as unknown as Handlers
    expect(handlerTable(all)).toBe(all)
    const { getOutbox: _left, ...partial } = all
    expect(() => handlerTable(partial)).toThrow(/no feature answers getOutbox$/)
  })

  it('starts features in order and stops them in reverse', async () => {
    const seen: string[] = []
    const feature = (name: string): Feature => ({ handlers: {}, start: () => void seen.push(`start ${name}`), stop: async () => void seen.push(`stop ${name}`) })
    const kiosk = combine(feature('a'), { handlers: {} }, feature('b'))
    await kiosk.start()
    await kiosk.stop()
    expect(seen).toEqual(['start a', 'start b', 'stop b', 'stop a'])
  })
})
