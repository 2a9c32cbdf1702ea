import { useEffect, useState, type RefObject } from 'react'

/**
 * 0 while the element's content is taller than its box (so a keyboard can reach and scroll it, as
 * when a staff screen has no control in view), undefined otherwise: no extra tab stop on a screen that fits.
 */
export function useFocusableWhenScrolling(ref: RefObject<HTMLElement | null>): 0 | undefined {
  const [scrolls, setScrolls] = useState(false)
  useEffect(() => {
    const element = ref.current
    if (!element) return
    const measure = () => setScrolls(element.scrollHeight > element.clientHeight + 1)
    // The box changes with the window; the content with every screen and state.
    const resized = new ResizeObserver(measure)
    resized.observe(element)
    const changed = new MutationObserver(measure)
    changed.observe(element, { childList: true, subtree: true, characterData: true })
    measure()
    return () => {
      resized.disconnect()
      changed.disconnect()
    }
  }, [ref])
  return scrolls ? 0 : undefined
}
