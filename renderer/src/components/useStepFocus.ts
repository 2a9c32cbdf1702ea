import { useEffect } from 'react'

/**
 * Moves the focus into the new step whenever `step` changes (and on the first one): within the
 * screen (the app's <main>), to the element marked data-step-focus, else the step's heading, else
 * its first field or button. Without it the focus stays where the old step was (or falls to the
 * page), and a keyboard or screen-reader user starts again from the top.
 */
export function useStepFocus(step: string): void {
  useEffect(() => {
    const root = document.querySelector('main') ?? document.body
    const target =
      root.querySelector<HTMLElement>('[data-step-focus]') ?? root.querySelector<HTMLElement>('h2, h3') ?? root.querySelector<HTMLElement>('input:not([type=hidden]), select, textarea, button')
    if (!target) return
    if (!target.matches('input, select, textarea, button, a') && !target.hasAttribute('tabindex')) target.tabIndex = -1
    target.focus()
  }, [step])
}
