/**
 * Waiting items kept per caller and taken round-robin: each caller with something waiting gets a
 * turn before any caller gets a second one, so one caller's hundred images delay another caller's
 * single photo by at most one image per caller, not by the whole hundred.
 */
export class FairQueue<T> {
  private readonly queues = new Map<string, T[]>()
  /** Callers with waiting items, in the order their turns come. */
  private readonly turns: string[] = []
  private count = 0

  get length(): number {
    return this.count
  }

  /** Items waiting for one caller. */
  lengthOf(caller: string): number {
    return this.queues.get(caller)?.length ?? 0
  }

  push(caller: string, item: T): void {
    const queue = this.queues.get(caller)
    if (queue) queue.push(item)
    else {
      this.queues.set(caller, [item])
      this.turns.push(caller)
    }
    this.count++
  }

  /** The next caller's oldest item; that caller then goes to the back of the line. */
  shift(): T | undefined {
    const caller = this.turns.shift()
    if (caller === undefined) return undefined
    const queue = this.queues.get(caller)!
    const item = queue.shift()!
    if (queue.length > 0) this.turns.push(caller)
    else this.queues.delete(caller)
    this.count--
    return item
  }

  /** Removes and returns everything (closing, or giving up). */
  drain(): T[] {
    const all: T[] = []
    for (let item = this.shift(); item !== undefined; item = this.shift()) all.push(item)
    return all
  }
}
