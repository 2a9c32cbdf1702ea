import type { Outcome } from './send'

/** Every answer within this, however hostile the request: no request may hold a caller longer. */
export const ANSWER_WITHIN_MS = 10_000

export const isServerError = (o: Outcome) => o.status !== null && o.status >= 500 && o.status !== 503
export const isUnhintedOverload = (o: Outcome) => o.status === 503 && o.retryAfter === undefined
export const isSlow = (o: Outcome) => o.ms > ANSWER_WITHIN_MS
/** No HTTP answer. Over-limit bodies excepted: the engine may refuse them by closing the connection. */
export const isUnanswered = (o: Outcome) => o.status === null && !o.request.oversize

export function countBy<T>(items: T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>()
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1)
  return counts
}

const requestLine = (o: Outcome) => `#${o.index} ${o.request.method} ${o.request.path.slice(0, 160)} [${o.request.label}]`

/**
 * One line per failing request: enough to read what was sent and, with the seed, to send it again.
 * With `all`, an unanswered request also names the one before it on its connection (often the cause).
 */
export function describeOutcome(o: Outcome, all?: Outcome[]): string {
  const answer = o.status === null ? o.error : `HTTP ${o.status}${o.answer ? ` ${o.answer.replace(/\s+/g, ' ').slice(0, 160)}` : ''}`
  const before = all && o.status === null && o.previous !== null ? all[o.previous] : undefined
  const after = before ? `; before it on this connection: ${requestLine(before)} -> ${before.status ?? before.error}` : ''
  return `${o.request.route}: ${requestLine(o)} -> ${answer} in ${Math.round(o.ms)} ms${after}`
}

/** Per-route status counts and per-status totals, as printed after the run. */
export function summary(outcomes: Outcome[]): string {
  const status = (o: Outcome) => (o.status === null ? (o.error ?? 'error').split(':')[0]! : String(o.status))
  const byRoute = new Map<string, Outcome[]>()
  for (const o of outcomes) byRoute.set(o.request.route, [...(byRoute.get(o.request.route) ?? []), o])
  const lines = [...byRoute].map(([route, list]) => `  ${route}: ${list.length} (${[...countBy(list, status)].sort().map(([s, n]) => `${s}×${n}`).join(' ')})`)
  const totals = [...countBy(outcomes, status)].sort().map(([s, n]) => `${s}×${n}`).join(' ')
  const worst = outcomes.reduce((a, b) => (b.ms > a.ms ? b : a))
  return [`${outcomes.length} requests over ${byRoute.size} routes; statuses: ${totals}`, `slowest: ${describeOutcome(worst)}`, ...lines].join('\n')
}
