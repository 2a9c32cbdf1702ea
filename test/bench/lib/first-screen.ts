import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser } from 'playwright'

/**
 * Times a page load to its first rendered screen, measured inside the page: from navigation start
 * to the animation frame that first has `selector` in the DOM (the frame that paints it). The same
 * probe times the app and the baseline page, each in a fresh browser context (a cold cache).
 */
const probe = (selector: string) => `(() => {
  window.__firstScreen = 0
  const found = () => {
    if (window.__firstScreen !== 0 || !document.querySelector(${JSON.stringify(selector)})) return false
    window.__firstScreen = -1
    requestAnimationFrame(() => { window.__firstScreen = performance.now() })
    return true
  }
  new MutationObserver((_, observer) => { if (found()) observer.disconnect() }).observe(document, { childList: true, subtree: true })
})()`

export interface FirstScreen {
  /** Navigation start to the first frame showing the selector, ms. */
  ms: number
  /** The same moment on the wall clock (epoch ms), to add the time before navigation. */
  at: number
  text: string
}

export async function timeFirstScreen(browser: Browser, url: string, selector: string): Promise<FirstScreen> {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await page.addInitScript(probe(selector))
    await page.goto(url)
    // A function, not a string: the kiosk's CSP forbids eval, which string predicates need.
    await page.waitForFunction(() => (globalThis as any).__firstScreen > 0, undefined, { timeout: 30_000 })
    const { ms, origin } = (await page.evaluate('({ ms: window.__firstScreen, origin: performance.timeOrigin })')) as { ms: number; origin: number }
    const text = (await page.locator(selector).first().textContent()) ?? ''
    return { ms, at: origin + ms, text }
  } finally {
    await context.close()
  }
}

/** The baseline page: the app's first heading as static HTML from a loopback server, nothing else. */
export async function staticPageServer(): Promise<{ url: string; close(): Promise<void> }> {
  const html = '<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>Baseline</title></head><body><main><h1 id="screen-title">Welcome</h1></main></body></html>'
  const server: Server = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
    response.end(html)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) }
}
