/**
 * Which row of the identify cache holds (personId, context), kept dense: removing a row moves the
 * last one into its place. Each person is one map entry (to one of their rows) and their other rows
 * are chained through an Int32Array: about 100 bytes less per row than a key object per row plus a
 * map of joined key strings, 100 MB at a million.
 */
export class RowKeys {
  private personIds: string[] = []
  private contexts: string[] = []
  private readonly firstRow = new Map<string, number>()
  /** The next row of the same person, -1 at the end. */
  private nextRow = new Int32Array(1024)

  get size(): number {
    return this.personIds.length
  }

  personId(row: number): string {
    return this.personIds[row]!
  }

  context(row: number): string {
    return this.contexts[row]!
  }

  /** The row holding (personId, context), or -1. */
  find(personId: string, context: string): number {
    for (let row = this.firstRow.get(personId) ?? -1; row >= 0; row = this.nextRow[row]!) {
      if (this.contexts[row] === context) return row
    }
    return -1
  }

  /** The rows of one person. */
  rowsOf(personId: string): number[] {
    const rows: number[] = []
    for (let row = this.firstRow.get(personId) ?? -1; row >= 0; row = this.nextRow[row]!) rows.push(row)
    return rows
  }

  /** Appends a row for a key not held yet; returns its index. */
  add(personId: string, context: string): number {
    const row = this.personIds.length
    if (row === this.nextRow.length) {
      const grown = new Int32Array(Math.ceil(row * 1.5))
      grown.set(this.nextRow)
      this.nextRow = grown
    }
    this.personIds.push(personId)
    this.contexts.push(context)
    this.nextRow[row] = this.firstRow.get(personId) ?? -1
    this.firstRow.set(personId, row)
    return row
  }

  /** Removes a row; the last row takes its index. Returns the index the last row had (the caller moves its data), or -1 if it was the last. */
  remove(row: number): number {
    this.unlink(row)
    const last = this.personIds.length - 1
    if (row !== last) {
      // Whatever pointed at the last row now points at `row`, which takes its place.
      const personId = this.personIds[last]!
      const head = this.firstRow.get(personId)!
      if (head === last) this.firstRow.set(personId, row)
      else this.nextRow[this.before(head, last)] = row
      this.nextRow[row] = this.nextRow[last]!
      this.personIds[row] = personId
      this.contexts[row] = this.contexts[last]!
    }
    this.personIds.pop()
    this.contexts.pop()
    return row === last ? -1 : last
  }

  clear(): void {
    this.personIds = []
    this.contexts = []
    this.firstRow.clear()
  }

  private unlink(row: number): void {
    const personId = this.personIds[row]!
    const head = this.firstRow.get(personId)!
    const next = this.nextRow[row]!
    if (head !== row) this.nextRow[this.before(head, row)] = next
    else if (next >= 0) this.firstRow.set(personId, next)
    else this.firstRow.delete(personId)
  }

  /** The row whose next is `row`, walking from `head`. */
  private before(head: number, row: number): number {
    let at = head
    while (this.nextRow[at] !== row) at = this.nextRow[at]!
    return at
  }
}
