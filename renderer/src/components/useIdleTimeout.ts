import { useEffect } from 'react'

const activity = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const

/** Calls `onIdle` after `seconds` without a pointer, key or touch; any activity restarts the count. */
export function useIdleTimeout(seconds: number | undefined, onIdle: () => void): void {
  useEffect(() => {
    if (!seconds) return
    let timer = setTimeout(onIdle, seconds * 1000)
    const restart = () => {
      clearTimeout(timer)
      timer = setTimeout(onIdle, seconds * 1000)
    }
    for (const name of activity) window.addEventListener(name, restart, { passive: true })
    return () => {
      clearTimeout(timer)
      for (const name of activity) window.removeEventListener(name, restart)
    }
  }, [seconds, onIdle])
}
