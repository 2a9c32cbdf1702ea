import { useRef, type ReactNode } from 'react'
import { useFocusableWhenScrolling } from './useFocusableWhenScrolling'

/** One column: its header, how a row fills its cell, and whether that cell names the row. */
export interface Column<Row> {
  header: ReactNode
  cell: (row: Row, index: number) => ReactNode
  /** The cell that names the row (a `th scope="row"`), for screen readers. */
  rowHeader?: boolean
  /** The column the rows are sorted by, and which way. */
  sort?: 'ascending' | 'descending' | undefined
  /** Row actions: the buttons stay on one line. */
  actions?: boolean
  className?: string
}

export interface DataTableProps<Row> {
  caption: ReactNode
  /** The caption is for screen readers only (a heading above already says what the table is). */
  captionHidden?: boolean
  columns: ReadonlyArray<Column<Row>>
  rows: readonly Row[]
  rowKey: (row: Row) => string
  rowClass?: (row: Row) => string | undefined
  /** The row that is open elsewhere on the screen (aria-current). */
  isCurrent?: (row: Row) => boolean
  testId?: string
  describedBy?: string
}

/**
 * The staff screens' tables: a caption, column headers, one named cell per row. A table wider than
 * its panel scrolls inside its own box instead of widening the page; long values wrap.
 */
export function DataTable<Row>({ caption, captionHidden = false, columns, rows, rowKey, rowClass, isCurrent, testId, describedBy }: DataTableProps<Row>) {
  const wrap = useRef<HTMLDivElement>(null)
  // Scrolling sideways, the box is a named stop for the keyboard (its rows may hold no button).
  const tabIndex = useFocusableWhenScrolling(wrap)
  const scrollable = tabIndex === 0 ? { tabIndex, role: 'region', 'aria-label': typeof caption === 'string' ? caption : 'Table' } : {}
  return (
    <div ref={wrap} className="table-wrap" {...scrollable}>
      <table className="data" data-testid={testId} aria-describedby={describedBy}>
        <caption className={captionHidden ? 'visually-hidden' : 'table-caption'}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column, i) => (
              <th key={i} scope="col" aria-sort={column.sort}>
                {column.actions && !column.header ? <span className="visually-hidden">Actions</span> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => {
            const current = isCurrent?.(row) ?? false
            return (
              <tr key={rowKey(row)} aria-current={current ? 'true' : undefined} className={[current ? 'selected' : '', rowClass?.(row) ?? ''].join(' ').trim() || undefined}>
                {columns.map((column, i) => {
                  const className = [column.actions ? 'row-actions' : '', column.className ?? ''].join(' ').trim() || undefined
                  return column.rowHeader ? (
                    <th key={i} scope="row" className={className}>
                      {column.cell(row, index)}
                    </th>
                  ) : (
                    <td key={i} className={className}>
                      {column.cell(row, index)}
                    </td>
                  )
                })}
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
