import { OverloadError } from '../face/overload'

/**
 * One request's share of the face workers: at most REQUEST_MAX_IN_FLIGHT of its images, and at most
 * REQUEST_MAX_PIXELS of them, are handed to a plugin at a time; the rest wait here, in order, as
 * base64-decoded bytes. So a request with a hundred inputs keeps a few images in the workers'
 * queue instead of a hundred, and other callers' images are not stuck behind all of them.
 */
export const REQUEST_MAX_IN_FLIGHT = 4
/** Two images at the largest sample size (4096×4096) fit; one larger image alone always does. */
export const REQUEST_MAX_PIXELS = 40_000_000
/**
 * Images of a request not started within this time are refused as overload (an item error in
 * identify / verify, 503 otherwise), so no request holds its caller for long: a hundred 4096² images
 * would take ~15 s on two cores.
 */
export const REQUEST_MAX_MS = 8_000

export interface RequestLimits {
  maxInFlight: number
  maxPixels: number
  maxMs: number
}

interface Waiter {
  pixels: number
  admit: () => void
  refuse: (error: Error) => void
}

export class RequestBudget {
  private inFlight = 0
  private pixels = 0
  private readonly waiting: Waiter[] = []
  private aborted: Error | null = null

  constructor(
    /** Who sent the request: the face workers' scheduling key. */
    readonly caller: string,
    private readonly limits: RequestLimits = { maxInFlight: REQUEST_MAX_IN_FLIGHT, maxPixels: REQUEST_MAX_PIXELS, maxMs: REQUEST_MAX_MS },
  ) {
    this.deadline = performance.now() + limits.maxMs
  }

  private readonly deadline: number

  /** Runs `task` once the request has room for an image of `pixels`; tasks start in call order. */
  async run<T>(pixels: number, task: () => Promise<T>): Promise<T> {
    await this.admit(pixels)
    try {
      return await task()
    } finally {
      this.inFlight--
      this.pixels -= pixels
      this.wake()
    }
  }

  /** Awaits images that stand or fall together (an enrollment's samples): the first failure stops those still waiting. */
  async all<T>(tasks: Array<Promise<T>>): Promise<T[]> {
    try {
      return await Promise.all(tasks)
    } catch (error) {
      this.abort(error instanceof Error ? error : new Error(String(error)))
      throw error
    }
  }

  /**
   * The request has failed (one bad sample fails an enrollment): images still waiting are not
   * started; their run() rejects with `reason`.
   */
  abort(reason: Error): void {
    this.aborted ??= reason
    for (const waiter of this.waiting.splice(0)) waiter.refuse(reason)
  }

  private admit(pixels: number): Promise<void> {
    if (this.aborted) return Promise.reject(this.aborted)
    if (this.pastDeadline()) return Promise.reject(this.timeUp())
    if (this.waiting.length === 0 && this.fits(pixels)) {
      this.take(pixels)
      return Promise.resolve()
    }
    return new Promise<void>((admit, refuse) => this.waiting.push({ pixels, admit, refuse }))
  }

  private fits(pixels: number): boolean {
    if (this.inFlight === 0) return true // an image larger than the budget still gets its turn alone
    return this.inFlight < this.limits.maxInFlight && this.pixels + pixels <= this.limits.maxPixels
  }

  private take(pixels: number): void {
    this.inFlight++
    this.pixels += pixels
  }

  private pastDeadline(): boolean {
    return performance.now() > this.deadline
  }

  private timeUp(): OverloadError {
    return new OverloadError(`The face workers are busy: this request had them for ${this.limits.maxMs / 1000} s; send the rest again.`, 1)
  }

  private wake(): void {
    if (this.pastDeadline()) for (const waiter of this.waiting.splice(0)) waiter.refuse(this.timeUp())
    while (this.waiting.length > 0 && this.fits(this.waiting[0]!.pixels)) {
      const next = this.waiting.shift()!
      this.take(next.pixels)
      next.admit()
    }
  }
}
