import { expect, type Locator, type Page } from '@playwright/test'

/** The guided capture takes its photos by itself; "Capture now" helps when it hesitates. Waits on `done`, not on time. */
export async function capture(page: Page, done: Locator): Promise<void> {
  await expect(async () => {
    if (await done.isVisible()) return
    const manual = page.getByRole('button', { name: 'Capture now' })
    if (await manual.isEnabled().catch(() => false)) await manual.click({ timeout: 1_000 }).catch(() => {})
    await expect(done).toBeVisible({ timeout: 2_000 })
  }).toPass({ timeout: 150_000 })
}
