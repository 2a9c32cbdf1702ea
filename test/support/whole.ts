import type { Locator } from '@playwright/test'

/**
 * What hides part of the element, or null when it is whole on screen: inside the window and inside
 * every ancestor box that clips (a table's sideways scroll shows "Revo" with no sign of the rest).
 * `sideways` looks only left and right (what an area scrolled up or down hides is another matter).
 */
export function hiddenPart(target: Locator, axes: 'both' | 'sideways' = 'both'): Promise<string | null> {
  return target.evaluate((el, sidewaysOnly) => {
    const r = el.getBoundingClientRect()
    if (r.width === 0 || r.height === 0) return 'not shown'
    const up = (top: number, bottom: number, low: number, high: number) => !sidewaysOnly && (top < low - 1 || bottom > high + 1)
    if (r.left < -1 || r.right > window.innerWidth + 1 || up(r.top, r.bottom, 0, window.innerHeight)) return `outside the ${window.innerWidth}×${window.innerHeight} window at ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}×${Math.round(r.height)}`
    for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
      const style = getComputedStyle(box)
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue
      const b = box.getBoundingClientRect()
      if (r.left < b.left - 1 || r.right > b.right + 1 || up(r.top, r.bottom, b.top, b.bottom)) return `clipped by ${box.tagName.toLowerCase()}.${[...box.classList].join('.')}: ${Math.round(r.left)}–${Math.round(r.right)} in ${Math.round(b.left)}–${Math.round(b.right)}, ${Math.round(r.top)}–${Math.round(r.bottom)} in ${Math.round(b.top)}–${Math.round(b.bottom)}`
    }
    return null
  }, axes === 'sideways')
}

/** How many lines `text` (as it is written inside the element, across any <wbr>) takes there. */
export function linesOf(target: Locator, text: string): Promise<number> {
  return target.evaluate((el, wanted) => {
    const nodes: Text[] = []
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node as Text)
    const whole = nodes.map((node) => node.data).join('')
    const start = whole.indexOf(wanted)
    if (start < 0) throw new Error(`"${wanted}" is not in "${whole}"`)
    const at = (offset: number): [Text, number] => {
      let seen = 0
      for (const node of nodes) {
        if (offset <= seen + node.data.length) return [node, offset - seen]
        seen += node.data.length
      }
      throw new Error('past the end')
    }
    const range = document.createRange()
    range.setStart(...at(start))
    range.setEnd(...at(start + wanted.length))
    const tops: number[] = []
    for (const rect of range.getClientRects()) {
      if (rect.width < 1) continue
      if (!tops.some((top) => Math.abs(top - rect.top) < rect.height / 2)) tops.push(rect.top)
    }
    return tops.length
  }, text)
}
