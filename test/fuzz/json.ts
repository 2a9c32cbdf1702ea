/**
 * JSON text for hostile values. JSON.stringify recurses (10k nesting levels would overflow its
 * stack) and cannot write a key named __proto__ from an object literal, so generated values are
 * plain data plus two markers: Raw (text written as is) and Pairs (an object as its key/value
 * pairs, any key allowed, duplicates included).
 */
export class Raw {
  constructor(readonly text: string) {}
}

export class Pairs {
  constructor(readonly entries: ReadonlyArray<readonly [string, unknown]>) {}
}

export function toJson(value: unknown): string {
  if (value instanceof Raw) return value.text
  if (value instanceof Pairs) return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`).join(',')}}`
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : toJson(v))).join(',')}]`
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`)
      .join(',')}}`
  }
  return JSON.stringify(value) ?? 'null' // NaN and ±Infinity become null, as JSON.stringify does
}

/** `levels` nested arrays or objects around `inner`: text only, so any depth is cheap to make. */
export function nested(levels: number, kind: 'array' | 'object', inner = '0'): Raw {
  return kind === 'array' ? new Raw(`${'['.repeat(levels)}${inner}${']'.repeat(levels)}`) : new Raw(`${'{"a":'.repeat(levels)}${inner}${'}'.repeat(levels)}`)
}

/** Query-string pairs of a generated value: arrays repeat their key (scope=a&scope=b). */
export function queryPairs(value: unknown): Array<[string, string]> {
  const entries = value instanceof Pairs ? value.entries : value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Raw) ? Object.entries(value) : []
  const pairs: Array<[string, string]> = []
  for (const [key, v] of entries) {
    if (v === undefined) continue
    for (const item of Array.isArray(v) ? v : [v]) pairs.push([key, typeof item === 'string' ? item : item instanceof Raw ? item.text : toJson(item)])
  }
  return pairs
}
