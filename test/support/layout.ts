import { expect, type Locator, type Page } from '@playwright/test'

/** The kiosk display sizes, landscape and portrait: every screen must fit each of them without page scrolling. */
export const kioskSizes = [
  { name: '1024x768', width: 1024, height: 768 },
  { name: '1280x800', width: 1280, height: 800 },
  { name: '1366x768', width: 1366, height: 768 },
  { name: '1920x1080', width: 1920, height: 1080 },
  { name: '1080x1920', width: 1080, height: 1920 },
] as const
export type KioskSize = (typeof kioskSizes)[number]

/** The smallest touch target side, in CSS pixels (WCAG 2.5.5). */
export const MIN_TARGET = 44

export interface LayoutFacts {
  viewport: { width: number; height: number }
  scroll: { width: number; height: number }
  /** How much taller than its box the main area's content is (0: it fits without scrolling). */
  mainOverflow: number
  /** How much wider than its box the main area's content is (it must never be). */
  mainOverflowX: number
  /** Visible controls (with their label, for boxes and checkboxes) under MIN_TARGET tall. */
  smallTargets: string[]
  /** The buttons asked for by name that are not whole inside the window and the main area. */
  buttonsOutOfView: string[]
  /** The main navigation's buttons not whole on screen: outside the window or clipped by a box that scrolls or hides. */
  navOutOfView: string[]
  /** Parts of a packed box (a face-match slot) drawn over each other: "<box>: <part> over <part>". */
  overlapping: string[]
  /** Names broken inside a word ("Face:HumanFaceRe/s"): a line may end only after a space or a colon. */
  brokenWords: string[]
  /** Check boxes and radios not on the first line of their label's text, just before it. */
  controlsApart: string[]
}

/** Short names that may wrap between their parts but never inside a word. */
const wholeWords = '.type-enrollment li'

/** Boxes whose parts (photo, caption, headings, controls) must never overprint each other. */
const packedBoxes = '.match-slot'

/**
 * Measures the page as it is now, in one go (the screen may be changing: a capture runs by itself),
 * with whether each button named in `buttons` is whole on screen.
 */
export function layoutFacts(page: Page, buttons: readonly string[] = []): Promise<LayoutFacts> {
  return page.evaluate(([min, names, packed, wordy]) => {
    const describe = (el: Element, height: number) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 40)}" ${Math.round(height)}px`
    const small: string[] = []
    for (const el of document.querySelectorAll<HTMLElement>('button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button]')) {
      if (el.getClientRects().length === 0 || getComputedStyle(el).visibility === 'hidden') continue
      let height = el.getBoundingClientRect().height
      // A box, a radio or a file input is hit through its label too: the bigger of the two counts.
      const labels = 'labels' in el ? ((el as HTMLInputElement).labels ?? []) : []
      for (const label of labels) height = Math.max(height, label.getBoundingClientRect().height)
      // Visually hidden and unlabelled (a meter's twin, say): not a target anyone touches.
      if (height <= 2) continue
      if (height < min) small.push(describe(el, height))
    }
    const main = document.querySelector('main')
    const area = main?.getBoundingClientRect() ?? new DOMRect(0, 0, window.innerWidth, window.innerHeight)
    const whole = (r: DOMRect) => r.left >= -1 && r.right <= window.innerWidth + 1 && r.top >= area.top - 1 && r.bottom <= Math.min(area.bottom, window.innerHeight) + 1
    const visibleButtons = [...document.querySelectorAll('button')].filter((b) => b.getClientRects().length > 0)
    const outOfView = names.filter((name) => {
      const button = visibleButtons.find((b) => b.textContent?.trim() === name)
      return !button || !whole(button.getBoundingClientRect())
    })
    // A nav button counts as shown only when whole inside the window and inside every ancestor that
    // clips (a row that scrolls sideways with a thin bar gives no sign of what it hides).
    const navButtons = [...document.querySelectorAll<HTMLElement>('nav[aria-label="Main"] button')]
    const navOutOfView = navButtons.filter((button) => {
      if (button.getClientRects().length === 0 || getComputedStyle(button).visibility === 'hidden') return true
      const r = button.getBoundingClientRect()
      if (r.left < -1 || r.top < -1 || r.right > window.innerWidth + 1 || r.bottom > window.innerHeight + 1) return true
      for (let box = button.parentElement; box && box !== document.body; box = box.parentElement) {
        const style = getComputedStyle(box)
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue
        const b = box.getBoundingClientRect()
        if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) return true
      }
      return false
    }).map((button) => button.textContent?.trim() ?? '')
    // Within each packed box, no two visible parts overlap (a part inside another does not count).
    const overlapping: string[] = []
    for (const box of document.querySelectorAll<HTMLElement>(packed)) {
      const parts = [...box.querySelectorAll<HTMLElement>('img, h2, p, span.hint, label, button')].filter((part) => {
        const r = part.getBoundingClientRect()
        return r.width > 2 && r.height > 2 && getComputedStyle(part).visibility !== 'hidden'
      })
      const name = (el: Element) => `${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute('alt') || '').trim().slice(0, 30)}"`
      parts.forEach((a, i) => {
        for (const b of parts.slice(i + 1)) {
          if (a.contains(b) || b.contains(a)) continue
          const ra = a.getBoundingClientRect()
          const rb = b.getBoundingClientRect()
          const x = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left)
          const y = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top)
          if (x > 1 && y > 1) overlapping.push(`${box.dataset.testid ?? box.className}: ${name(a)} over ${name(b)}`)
        }
      })
    }
    // Where each line of a name ends, character by character: it must end after a space or a colon.
    const brokenWords: string[] = []
    for (const el of document.querySelectorAll<HTMLElement>(wordy)) {
      if (el.getClientRects().length === 0) continue
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
      let previous: { char: string; top: number } | null = null
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? ''
        if ((node.parentElement?.getBoundingClientRect().width ?? 0) <= 2) continue // visually hidden
        for (let i = 0; i < text.length; i++) {
          const range = document.createRange()
          range.setStart(node, i)
          range.setEnd(node, i + 1)
          const rect = range.getBoundingClientRect()
          const char = text[i]!
          // A space the line broke at has no box of its own: it still counts as where the line ended.
          if (/\s/.test(char) && previous) previous = { char, top: previous.top }
          if (rect.width === 0 && rect.height === 0) continue
          if (previous && rect.top > previous.top + 2 && !/[\s:]/.test(previous.char) && !/\s/.test(char)) brokenWords.push(`"${(el.textContent ?? '').trim()}" broken after "${previous.char}"`)
          previous = { char, top: rect.top }
        }
      }
    }
    // A box or radio sits on its label's first line, just before the text (not on a line of its own);
    // "before" is to the right in a right-to-left language.
    const controlsApart: string[] = []
    for (const input of document.querySelectorAll<HTMLInputElement>('input[type=checkbox], input[type=radio]')) {
      const r = input.getBoundingClientRect()
      if (r.width <= 2 || getComputedStyle(input).visibility === 'hidden') continue
      for (const label of input.labels ?? []) {
        const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT)
        let line: DOMRect | null = null
        for (let node = walker.nextNode(); node && !line; node = walker.nextNode()) {
          if (!node.textContent?.trim()) continue
          const range = document.createRange()
          range.selectNodeContents(node)
          line = [...range.getClientRects()].find((rect) => rect.width > 0) ?? null
        }
        if (!line) continue
        const middle = r.top + r.height / 2
        const before = getComputedStyle(input).direction === 'rtl' ? r.left >= line.right - 1 && r.left - line.right < 32 : r.right <= line.left + 1 && line.left - r.right < 32
        const beside = middle >= line.top - 2 && middle <= line.bottom + 2 && before
        if (!beside) controlsApart.push(`${input.type} "${(label.textContent ?? '').trim().slice(0, 40)}"`)
      }
    }
    return {
      viewport: { width: window.innerWidth, height: window.innerHeight },
      scroll: { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight },
      mainOverflow: main ? Math.max(0, main.scrollHeight - main.clientHeight) : 0,
      mainOverflowX: main ? Math.max(0, main.scrollWidth - main.clientWidth) : 0,
      smallTargets: small,
      buttonsOutOfView: outOfView,
      navOutOfView,
      overlapping,
      brokenWords,
      controlsApart,
    }
  }, [MIN_TARGET, buttons, packedBoxes, wholeWords] as const)
}

/** No page scrolling either way, and (unless `mainMayScroll`) the screen's content fits its area. */
export function expectFits(facts: LayoutFacts, what: string, options: { mainMayScroll?: boolean } = {}): void {
  expect.soft(facts.scroll.width, `${what}: the page is wider than the window`).toBeLessThanOrEqual(facts.viewport.width)
  expect.soft(facts.scroll.height, `${what}: the page is taller than the window`).toBeLessThanOrEqual(facts.viewport.height)
  expect.soft(facts.mainOverflowX, `${what}: the screen's content is wider than its area`).toBeLessThanOrEqual(1)
  if (!options.mainMayScroll) expect.soft(facts.mainOverflow, `${what}: the screen's content is taller than its area`).toBeLessThanOrEqual(1)
}

/** Every item of the main navigation is whole on screen: none hidden in a row that scrolls. */
export function expectNavShown(facts: LayoutFacts, what: string): void {
  expect.soft(facts.navOutOfView, `${what}: navigation items out of view`).toEqual([])
}

/** No packed box has parts drawn over each other. */
export function expectNoOverlap(facts: LayoutFacts, what: string): void {
  expect.soft(facts.overlapping, `${what}: parts drawn over each other`).toEqual([])
}

/** No name broken inside a word. */
export function expectWholeWords(facts: LayoutFacts, what: string): void {
  expect.soft(facts.brokenWords, `${what}: names broken mid-word`).toEqual([])
}

/** Every check box and radio beside its label. */
export function expectControlsBesideLabels(facts: LayoutFacts, what: string): void {
  expect.soft(facts.controlsApart, `${what}: boxes or radios apart from their labels`).toEqual([])
}

/** Every visible control is at least MIN_TARGET tall. */
export function expectTouchTargets(facts: LayoutFacts, what: string): void {
  expect.soft(facts.smallTargets, `${what}: touch targets under ${MIN_TARGET}px`).toEqual([])
}

/**
 * Each locator is on screen whole: inside the window, not scrolled away inside the main area. All
 * are measured at once: a screen that lasts only so long (a liveness step's time) must still be
 * on screen when the last is measured, however busy the machine.
 */
export async function expectInView(page: Page, what: string, ...targets: Locator[]): Promise<void> {
  const viewport = page.viewportSize()!
  await Promise.all(targets.map((target) => expect(target).toBeVisible()))
  const [main, ...boxes] = await Promise.all([page.locator('main').boundingBox(), ...targets.map((target) => target.boundingBox())])
  for (const [i, target] of targets.entries()) {
    const box = boxes[i]
    expect(box, `${what}: ${target.toString()} is not shown`).not.toBeNull()
    const { x, y, width, height } = box!
    const inside = x >= 0 && y >= (main?.y ?? 0) - 1 && x + width <= viewport.width + 1 && y + height <= Math.min(viewport.height, main ? main.y + main.height : Infinity) + 1
    expect.soft(inside, `${what}: ${target.toString()} at ${Math.round(x)},${Math.round(y)} ${Math.round(width)}×${Math.round(height)} is not inside the ${viewport.width}×${viewport.height} window`).toBe(true)
  }
}
