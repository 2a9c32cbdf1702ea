import type { Locator, Page } from '@playwright/test'

/** Enroll's consent box: written to the visitor on their own ("I have read…"), to staff who enroll someone. */
export function consentBox(page: Page, as: 'visitor' | 'staff' = 'visitor'): Locator {
  return page.getByLabel(as === 'staff' ? 'The visitor has read this and agrees' : 'I have read this and agree', { exact: true })
}
