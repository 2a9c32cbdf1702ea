import { describe, expect, it } from 'vitest'
import { RequestBudget } from '../../electron/engine/bio/request-budget'
import { OverloadError } from '../../electron/engine/face/overload'

describe('a request budget', () => {
  it('refuses images not started by its deadline as overload, and lets those under way finish', async () => {
    const budget = new RequestBudget('caller', { maxInFlight: 1, maxPixels: 1e9, maxMs: 50 })
    const created = performance.now()
    let release!: () => void
    const first = budget.run(1, () => new Promise<string>((resolve) => (release = () => resolve('first done'))))
    const second = budget.run(1, async () => 'second done')
    // Wait on the clock's state, not for a span: past the deadline, the first image is still running.
    while (performance.now() <= created + 50) await new Promise((r) => setTimeout(r, 10))
    release()
    expect(await first).toBe('first done')
    const refused = await second.catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(OverloadError)
    expect((refused as OverloadError).message).toMatch(/busy.*send the rest again/)
    await expect(budget.run(1, async () => 'late')).rejects.toBeInstanceOf(OverloadError)
  })

  it('runs images one batch after another within its deadline', async () => {
    const budget = new RequestBudget('caller', { maxInFlight: 2, maxPixels: 1e9, maxMs: 60_000 })
    let running = 0
    let most = 0
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        budget.run(1, async () => {
          most = Math.max(most, ++running)
          await new Promise((r) => setImmediate(r))
          running--
          return i
        }),
      ),
    )
    expect(results).toEqual([0, 1, 2, 3, 4, 5])
    expect(most).toBe(2)
  })
})
