import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'
import { projectRoot } from './process'
import { signInAs } from './web-host'

/** Where e2e screenshots go: one per screen and state, for people to look at. */
export const screensDir = join(projectRoot, 'test-results/screens')

/** No serious or critical axe violation on the page as it is now (the report names each). */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze()
  const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  const report = blocking.map((v) => `${v.impact} ${v.id}: ${v.help}\n${v.nodes.map((n) => `  ${n.target.join(' ')}: ${n.failureSummary ?? ''}`).join('\n')}`).join('\n')
  expect(blocking, report).toEqual([])
}

/** Accessible, then a full-page screenshot named `name`. */
export async function checkScreen(page: Page, name: string): Promise<void> {
  await expectAccessible(page)
  mkdirSync(screensDir, { recursive: true })
  await page.screenshot({ path: join(screensDir, `${name}.png`), fullPage: true })
}

/** Accessible, then a screenshot of the window as a person sees it, in test-results/screens/<size>/<name>.png. */
export async function checkScreenAt(page: Page, size: string, name: string): Promise<void> {
  await expectAccessible(page)
  mkdirSync(join(screensDir, size), { recursive: true })
  await page.screenshot({ path: join(screensDir, size, `${name}.png`) })
}

/** Home → "Staff sign-in" as the test administrator → the staff screen named `title`, once the engine is ready. */
export async function openStaffScreen(page: Page, launchUrl: string, title: string): Promise<void> {
  await page.goto(launchUrl)
  await expect(page.getByTestId('engine-state')).toHaveText('Ready', { timeout: 0 })
  await signInAs(page)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: title, exact: true }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
}
