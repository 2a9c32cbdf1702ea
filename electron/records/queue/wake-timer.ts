/**
 * A delivery loop's sleep that a new item (or a retry, or stop) cuts short: sleep(ms) resolves after
 * ms or at the next wake(), whichever comes first; a wake() while awake makes the next sleep return
 * at once, so nothing enqueued between two steps waits a whole interval.
 */
export class WakeTimer {
  private wakeSleeper: (() => void) | null = null
  private woken = false

  wake(): void {
    if (this.wakeSleeper) this.wakeSleeper()
    else this.woken = true
  }

  sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false
      return Promise.resolve()
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.wakeSleeper = null
        resolve()
      }
      const timer = setTimeout(done, ms)
      this.wakeSleeper = done
    })
  }
}
