import type { ZodType } from 'zod'
import { emailRule } from '@shared/email'
import { t } from '../i18n'

/**
 * A form field checked with the contract's own schema (electron/shared/workflows.ts), so the form
 * refuses exactly what the services would: 'missing' for an empty value, 'invalid' when the schema
 * says no, null when it passes. The screen turns the verdict into plain words for its field.
 */
export function checkField(schema: ZodType, value: string): 'missing' | 'invalid' | null {
  if (value.trim() === '') return 'missing'
  return schema.safeParse(value.trim()).success ? null : 'invalid'
}

/** The plain words for the visitor's e-mail field (Enroll, Verify), in the visitor's language. */
export function emailProblem(verdict: 'missing' | 'invalid' | null, value = ''): string | null {
  if (verdict === 'missing') return t('email.missing')
  if (verdict !== 'invalid') return null
  const broken = emailRule(value.trim())
  return broken ? t(`email.${broken.rule}`, broken) : t('email.invalid')
}
