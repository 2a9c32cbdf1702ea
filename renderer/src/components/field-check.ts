import { emailRuleBroken } from '../../../electron/shared/email'
import type { ZodType } from 'zod'

/**
 * A form field checked with the contract's own schema (electron/shared/workflows.ts), so the form
 * refuses exactly what the services would: 'missing' for an empty value, 'invalid' when the schema
 * says no, null when it passes. The screen turns the verdict into plain words for its field.
 */
export function checkField(schema: ZodType, value: string): 'missing' | 'invalid' | null {
  if (value.trim() === '') return 'missing'
  return schema.safeParse(value.trim()).success ? null : 'invalid'
}

/** The plain words for the visitor's e-mail field (Enroll, Verify). */
export function emailProblem(verdict: 'missing' | 'invalid' | null, value = ''): string | null {
  if (verdict === 'missing') return 'The e-mail address is missing. Enter the visitor’s e-mail address.'
  if (verdict === 'invalid') return emailRuleBroken(value.trim()) ?? 'Enter the visitor’s e-mail address, like name@example.com.'
  return null
}
