import { z } from 'zod'

/**
 * The e-mail rule every part of the kiosk uses (the person server's userId is an e-mail address):
 * internationalised addresses are accepted (letters of any script, RFC 6531), and a refusal names
 * the rule broken, in words the form can show as they are.
 */
const LOCAL_MAX = 64
const ADDRESS_MAX = 254
const LOCAL = /^[\p{L}\p{M}\p{N}_'+.-]+$/u
const DOMAIN = /^(?:[\p{L}\p{M}\p{N}](?:[\p{L}\p{M}\p{N}-]*[\p{L}\p{M}\p{N}])?\.)+\p{L}[\p{L}\p{M}\p{N}-]*[\p{L}\p{M}\p{N}]$/u

/** A rule an address breaks; the lengths let the words say by how much (the visitor's form translates them). */
export type EmailRule =
  | { rule: 'oneAt' | 'dots' | 'localChars' | 'domain' }
  | { rule: 'localLength' | 'addressLength'; length: number; max: number }

/** Which rule `address` breaks; null when it is an e-mail address. */
export function emailRule(address: string): EmailRule | null {
  const at = address.lastIndexOf('@')
  if (at <= 0 || at !== address.indexOf('@') || at === address.length - 1) return { rule: 'oneAt' }
  const local = address.slice(0, at)
  const domain = address.slice(at + 1)
  const localLength = [...local].length
  if (localLength > LOCAL_MAX) return { rule: 'localLength', length: localLength, max: LOCAL_MAX }
  const length = [...address].length
  if (length > ADDRESS_MAX) return { rule: 'addressLength', length, max: ADDRESS_MAX }
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) return { rule: 'dots' }
  if (!LOCAL.test(local)) return { rule: 'localChars' }
  if (!DOMAIN.test(domain)) return { rule: 'domain' }
  return null
}

/** The rule broken in plain English (the services' refusal); null when `address` is an e-mail address. */
export function emailRuleBroken(address: string): string | null {
  const broken = emailRule(address)
  if (!broken) return null
  switch (broken.rule) {
    case 'oneAt':
      return 'An e-mail address has one @ between the name and the domain, like name@example.com.'
    case 'localLength':
      return `The part before the @ has ${broken.length} characters; it can have at most ${broken.max}.`
    case 'addressLength':
      return `The address has ${broken.length} characters; it can have at most ${broken.max}.`
    case 'dots':
      return 'The part before the @ cannot start or end with a dot, or have two dots in a row.'
    case 'localChars':
      return "The part before the @ can have letters, digits and . _ ' + - only."
    case 'domain':
      return 'The part after the @ must be a domain, like example.com.'
  }
}

/** An e-mail address (trimmed), refused with the rule it breaks. */
export const email = z
  .string()
  .trim()
  .superRefine((value, context) => {
    const broken = emailRuleBroken(value)
    if (broken) context.addIssue({ code: 'custom', message: broken })
  })
