import fc from 'fast-check'
import { nested, Pairs, Raw } from './json'
import type { Hints } from './schema-arb'

/** Keys that name Object.prototype members: lookups by them find functions, not data. */
export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'] as const

/** Hostile scalars and structures: what a value anywhere in a request may be replaced with. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(...PROTO_KEYS),
  fc.constantFrom<unknown>('', ' ', '\u0000', 'a\u0000b', '\r\nX-Injected: 1', '\u202eevil', '\ud800', '\udfff\ud800', '\ufeff', '😀'.repeat(500), '../../../../etc/passwd', '%00', '%2e%2e%2f', 'null', 'undefined', 'NaN', '${7*7}', "' OR 1=1 --", '<script>'),
  fc.constantFrom<unknown>(0, -0, -1, 0.5, 1e308, -1e308, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, 4294967296, true, false, null, [], {}),
  fc.constantFrom<unknown>('A'.repeat(100_000), 'é'.repeat(50_000), '\u0001\u0002\u0003\u007f'.repeat(2000)),
  fc.constantFrom<unknown>(nested(10_000, 'array'), nested(10_000, 'object'), nested(100, 'array')),
  // Huge arrays: cheap to send, costly to validate item by item.
  fc.constantFrom<unknown>(new Raw(`[${'0,'.repeat(99_999)}0]`), new Raw(`[${'"x",'.repeat(49_999)}"x"]`), new Raw(`[${'{},'.repeat(49_999)}{}]`)),
  fc.string({ maxLength: 30, unit: 'binary' }),
  fc.jsonValue({ maxDepth: 3 }),
)

type Mutation = 'replace' | 'drop-key' | 'extra-key' | 'proto-key' | 'near-miss' | 'field' | 'wrap-array' | 'duplicate-key'

/**
 * A valid-ish value, changed in one hostile way: replaced outright; an object with a field dropped,
 * an extra or prototype-named key added, a field set to a hostile value or to its near miss (its
 * hint's tricky values: sort=constructor), a key repeated; wrapped in an array (wrong type).
 */
export function mutated(valid: fc.Arbitrary<unknown>, hints: Hints): fc.Arbitrary<unknown> {
  const mutation = fc.constantFrom<Mutation>('replace', 'drop-key', 'extra-key', 'proto-key', 'near-miss', 'near-miss', 'field', 'field', 'wrap-array', 'duplicate-key')
  return fc.tuple(valid, mutation, hostileValue, fc.nat(), fc.constantFrom(...PROTO_KEYS), fc.string({ maxLength: 12 })).chain(([value, how, bad, index, protoKey, extraKey]) => {
    if (how === 'replace') return fc.constant(bad)
    if (how === 'wrap-array') return fc.constant([value])
    if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Raw || value instanceof Pairs) {
      return fc.constant(Array.isArray(value) && value.length > 0 ? value.map((item, i) => (i === index % value.length ? bad : item)) : bad)
    }
    const entries = Object.entries(value).filter(([, v]) => v !== undefined)
    const at = entries.length ? index % entries.length : 0
    const withField = (v: unknown) => (entries.length ? new Pairs(entries.map(([k, old], i) => [k, i === at ? v : old])) : new Pairs([[extraKey, v]]))
    switch (how) {
      case 'drop-key':
        return fc.constant(new Pairs(entries.filter((_, i) => i !== at)))
      case 'extra-key':
        return fc.constant(new Pairs([...entries, [extraKey, bad]]))
      case 'proto-key':
        return fc.constant(new Pairs([...entries, [protoKey, index % 2 ? bad : { polluted: true }]]))
      case 'duplicate-key':
        return fc.constant(entries.length ? new Pairs([...entries, [entries[at]![0], bad]]) : new Pairs([[protoKey, bad]]))
      case 'near-miss': {
        const tricky = entries.length ? hints(entries[at]![0].toLowerCase())?.tricky : undefined
        return tricky ? tricky.map(withField) : fc.constant(withField(protoKey))
      }
      default:
        return fc.constant(withField(bad))
    }
  })
}

/** Path segments that try to leave their route: traversal, encoded slashes and NULs, junk escapes. */
export const hostileSegment = fc.constantFrom(
  '..',
  '.',
  '%2e%2e',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '%2F',
  'a%2Fb',
  '%5C..%5C',
  '%00',
  'a%00b',
  '%ZZ',
  '%',
  '%C0%AE%C0%AE',
  '__proto__',
  'constructor',
  'toString',
  'A'.repeat(4000),
  encodeURIComponent('\u202e😀\u0000'),
  '%0d%0aX-Injected:%201',
  ';',
  '*',
  '~',
)
