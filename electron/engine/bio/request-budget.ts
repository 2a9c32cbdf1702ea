/**
 * One request's share of the face workers: at most REQUEST_MAX_IN_FLIGHT of its images, and at most
 * REQUEST_MAX_PIXELS of them, are handed to a plugin at a time; the rest wait here, in order, as
 * base64-decoded bytes. So a request with a hundred inputs keeps a few images in the workers'
 * queue instead of a hundred, and other callers' images are not stuck behind all of them.
 */
export const REQUEST_MAX_IN_FLIGHT = 4
/** Two images at the largest sample size (4096×4096) fit; one larger image alone always does. */
export const REQUEST_MAX_PIXELS = 40_000_000

export interface RequestLimits {
  maxInFlight: number
  maxPixels: number
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
    private readonly limits: RequestLimits = { maxInFlight: REQUEST_MAX_IN_FLIGHT, maxPixels: REQUEST_MAX_PIXELS },
  ) {}

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

  private wake(): void {
    while (this.waiting.length > 0 && this.fits(this.waiting[0]!.pixels)) {
      const next = this.waiting.shift()!
      this.take(next.pixels)
      next.admit()
    }
  }
}
