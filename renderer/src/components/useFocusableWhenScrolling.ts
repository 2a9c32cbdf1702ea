import { useEffect, useState, type RefObject } from 'react'

/**
 * 0 while the element's content overflows its box either way (so a keyboard can reach and scroll
 * it, as when a staff screen or a wide table has no control in view), undefined otherwise: no extra
 * tab stop where everything fits.
 */
export function useFocusableWhenScrolling(ref: RefObject<HTMLElement | null>): 0 | undefined {
  const [scrolls, setScrolls] = useState(false)
  useEffect(() => {
    const element = ref.current
    if (!element) return
    const measure = () => setScrolls(element.scrollHeight > element.clientHeight + 1 || element.scrollWidth > element.clientWidth + 1)
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
