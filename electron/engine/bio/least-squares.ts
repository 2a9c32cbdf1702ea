/** The coefficients c minimising |rows·c − values|² (normal equations, partial pivoting); null when the rows do not determine them. */
export function leastSquares(rows: readonly (readonly number[])[], values: readonly number[]): number[] | null {
  const n = rows[0]?.length ?? 0
  if (n === 0 || rows.length < n) return null
  const m = Array.from({ length: n }, (_, i) => [
    ...Array.from({ length: n }, (_, j) => rows.reduce((sum, row) => sum + row[i]! * row[j]!, 0)),
    rows.reduce((sum, row, k) => sum + row[i]! * values[k]!, 0),
  ])
  for (let c = 0; c < n; c++) {
    let pivot = c
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r
    ;[m[c], m[pivot]] = [m[pivot]!, m[c]!]
    const lead = m[c]![c]!
    if (Math.abs(lead) < 1e-12) return null
    for (let r = 0; r < n; r++) {
      if (r === c) continue
      const f = m[r]![c]! / lead
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!
    }
  }
  return m.map((row, i) => row[n]! / row[i]!)
}
