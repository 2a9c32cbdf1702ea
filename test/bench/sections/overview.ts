import { performance } from 'node:perf_hooks'
import type { Page } from 'playwright'
import { openLocalFrontDesk } from '../../../electron/records/frontdesk/local'
import { overviewRange } from '../../../renderer/src/screens/visits/overview-figures'
import { signInAs, startWebHost } from '../../support/web-host'
import { launchBrowser } from '../lib/browser'
import { buildRendererOnce } from '../lib/build'
import { row } from '../lib/report'
import type { BenchSection } from '../lib/section'
import { latency } from '../lib/stats'

/** Visits → Overview: 100,000 visits over 90 days, drawn within half a second. */
const VISITS = 100_000
const DAYS = 90
const HOSTS = 20
const TARGET_MS = 500

/**
 * The kiosk's own front desk filled in one statement: each visit on one of the last DAYS days,
 * between 08:00 and 18:00, to one of HOSTS hosts; those before today ended after 20–120 minutes,
 * a third of today's still on site. Each visit is its own person (one open visit per person).
 */
async function seed(dataDir: string): Promise<void> {
  const local = await openLocalFrontDesk({ dataDir })
  try {
    const now = new Date()
    const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime()
    for (let h = 0; h < HOSTS; h++) await local.database.run('INSERT INTO hosts (id, name, email, webhook_url, created_at) VALUES (?, ?, NULL, NULL, ?)', [`h${h}`, `Host number ${h + 1}`, midnight])
    await local.database.run(
      `WITH RECURSIVE s(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n < ${VISITS - 1}),
       v(n, day, at) AS (SELECT n, n % ${DAYS}, ? - (n % ${DAYS}) * 86400000 + (8 * 60 + (n * 7919) % 600) * 60000 FROM s)
       INSERT INTO visits (id, person_uuid, email, email_key, host_id, host_name, purpose, checked_in_at, checked_out_at, checked_out_by, kiosk_id)
       SELECT 'v' || n, 'p' || n, 'v' || n || '@bench.example', 'v' || n || '@bench.example', 'h' || ((n * 31) % ${HOSTS}), 'Host number ' || ((n * 31) % ${HOSTS} + 1), 'Meeting', at,
              CASE WHEN day = 0 AND n % 3 = 0 THEN NULL ELSE at + (20 + n % 100) * 60000 END, CASE WHEN day = 0 AND n % 3 = 0 THEN NULL ELSE 'visitor' END, 'bench' FROM v`,
      [midnight],
    )
  } finally {
    await local.close()
  }
}

/** The weeks chosen in the Overview until its counts for them are drawn (the section no longer busy, then two frames: painted). In the page, as text: these tests' TypeScript has no DOM. */
async function drawOverview(page: Page, weeks: number): Promise<number> {
  return (await page.evaluate(`(async () => {
    const section = document.querySelector('[data-testid=visit-overview]')
    const select = section.querySelector('select')
    const drawn = () => section.dataset.weeks === '${weeks}' && section.getAttribute('aria-busy') === 'false' && section.querySelector('[data-testid=overview-arrivals] svg[role=img]') !== null
    const started = performance.now()
    select.value = '${weeks}'
    select.dispatchEvent(new Event('change', { bubbles: true }))
    await new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        if (!drawn()) return
        observer.disconnect()
        resolve()
      })
      observer.observe(section, { attributes: true, childList: true, subtree: true })
    })
    await new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted)))
    return performance.now() - started
  })()`)) as number
}

/**
 * The Overview of 100,000 visits over 90 days at a kiosk on its own (SQLite): from choosing "the
 * 13 weeks before" to the charts drawn, against the services' visitOverview call for the same
 * range alone (the bridge round trip and the counting, nothing drawn), in the same run.
 */
export const overview: BenchSection = {
  name: 'overview',
  async run({ quick, log }) {
    await buildRendererOnce(log)
    const host = await startWebHost()
    const browser = await launchBrowser()
    try {
      await seed(host.dataDir)
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
      await page.goto(host.launchUrl)
      await signInAs(page)
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Visits', exact: true }).click()
      await page.getByTestId('visit-overview').locator('[data-testid=overview-arrivals] svg[role=img]').waitFor({ timeout: 120_000 })

      const rounds = quick ? 5 : 20
      const drawn: number[] = []
      const counted: number[] = []
      for (let i = 0; i <= rounds; i++) {
        // Away and back: each round asks for the 13 weeks anew.
        await drawOverview(page, 1)
        const ms = await drawOverview(page, 13)
        const started = performance.now()
        const answer = await host.bridge<{ arrivals: Array<[number, number]> }>('visitOverview', overviewRange(13, new Date()))
        const callMs = performance.now() - started
        const visits = answer.arrivals.reduce((sum, [, n]) => sum + n, 0)
        if (visits !== VISITS) throw new Error(`the Overview counted ${visits} visits, not ${VISITS}`)
        if (i === 0) continue // warm-up
        drawn.push(ms)
        counted.push(callMs)
      }
      const toDrawn = latency(drawn)
      const call = latency(counted)
      log(`Overview of ${VISITS} visits over ${DAYS} days: drawn p50 ${toDrawn.p50.toFixed(0)} ms (p99 ${toDrawn.p99.toFixed(0)}); visitOverview alone p50 ${call.p50.toFixed(0)} ms`)
      return [
        row('overview', `Visits → Overview, ${VISITS.toLocaleString('en')} visits over ${DAYS} days: the 13 weeks chosen → charts drawn, p50`, toDrawn.p50, 'ms', { name: 'visitOverview alone (bridge + counting in SQLite), p50', value: call.p50, unit: 'ms' }, {
          target: { text: `p50 <= ${TARGET_MS} ms`, met: toDrawn.p50 <= TARGET_MS },
          note: `${rounds} rounds after a warm-up, a kiosk on its own (SQLite), headless Chromium at 1280×800; p99 ${toDrawn.p99.toFixed(0)} vs ${call.p99.toFixed(0)} ms`,
        }),
      ]
    } finally {
      await browser.close()
      await host.stop()
    }
  },
}
