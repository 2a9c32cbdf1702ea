/**
 * Steady guidance text: a new message must hold for `settleMs` before it replaces the shown one,
 * so the words do not flicker frame by frame. `immediate` messages (e.g. "Hold still…") and the
 * first message show at once.
 */
export class GuidanceSettler {
  private shown = ''
  private candidate: { message: string; since: number } | null = null

  constructor(
    private readonly show: (message: string) => void,
    private readonly settleMs: number,
  ) {}

  propose(message: string, now: number, immediate = false): void {
    if (message === this.shown) {
      this.candidate = null
      return
    }
    if (this.candidate?.message !== message) this.candidate = { message, since: now }
    if (immediate || this.shown === '' || now - this.candidate.since >= this.settleMs) {
      this.shown = message
      this.candidate = null
      this.show(message)
    }
  }

  /** Something else took the screen (a capture's own message): the next proposal shows at once. */
  release(): void {
    this.shown = ''
  }
}
