import { randomBytes } from 'node:crypto'

const MAX_TABS = 1000

/**
 * The session ids the web host has issued, one per page load, with how many event streams each
 * has open. A page's last stream closing means it was closed or reloaded: its id is forgotten.
 */
export class TabSessions {
  private readonly streams = new Map<string, number>()

  issue(): string {
    // Oldest first: a flood of page loads forgets the oldest ids, never grows without bound.
    if (this.streams.size >= MAX_TABS) this.streams.delete(this.streams.keys().next().value!)
    const id = randomBytes(24).toString('base64url')
    this.streams.set(id, 0)
    return id
  }

  has(id: string): boolean {
    return this.streams.has(id)
  }

  opened(id: string): void {
    const open = this.streams.get(id)
    if (open !== undefined) this.streams.set(id, open + 1)
  }

  /** Returns true when that was the tab's last open stream (the id is then forgotten). */
  closed(id: string): boolean {
    const open = this.streams.get(id)
    if (open === undefined) return false
    if (open > 1) {
      this.streams.set(id, open - 1)
      return false
    }
    this.streams.delete(id)
    return true
  }
}
