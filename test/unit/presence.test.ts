import { beforeAll, describe, expect, it } from 'vitest'

// presence.ts speaks through window events; Node's EventTarget is the same mechanism.
beforeAll(() => {
  ;(globalThis as { window?: unknown }).window = new EventTarget()
})

describe('presence: a call someone waits on', () => {
  it('holds the idle timer while in flight, and its answer counts as presence, whether it succeeds or fails', async () => {
    const { awaited, awaitingReply, onPresence } = await import('../../renderer/src/camera/presence')
    let seen = 0
    const stop = onPresence(() => seen++)
    let finish!: () => void
    const slow = awaited(() => new Promise<string>((resolve) => (finish = () => resolve('done'))))
    expect(awaitingReply()).toBe(true)
    finish()
    await expect(slow).resolves.toBe('done')
    expect(awaitingReply()).toBe(false)
    expect(seen).toBe(1)

    let fail!: () => void
    const failing = awaited(() => new Promise<never>((_, reject) => (fail = () => reject(new Error('refused')))))
    // A second answer within the same second is still presence: the person reads it from now on.
    expect(awaitingReply()).toBe(true)
    fail()
    await expect(failing).rejects.toThrow('refused')
    expect(awaitingReply()).toBe(false)
    expect(seen).toBe(2)
    stop()
  })
})
