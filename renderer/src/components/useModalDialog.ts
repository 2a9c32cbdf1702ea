import { useEffect, useRef } from 'react'

/**
 * A <dialog> shown modal while mounted: focus goes to its `data-autofocus` control, and back to
 * where it was when it closes (the screen's title if that is gone), so keyboard users never land
 * at the top of the page.
 */
export function useModalDialog() {
  const dialog = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const element = dialog.current
    if (!element) return
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    if (!element.open) element.showModal()
    element.querySelector<HTMLElement>('[data-autofocus]')?.focus()
    return () => {
      if (element.open) element.close()
      const target = opener?.isConnected ? opener : document.getElementById('screen-title')
      target?.focus()
    }
  }, [])
  return dialog
}
