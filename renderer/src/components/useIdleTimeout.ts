import { useEffect, useRef } from 'react'

const activity = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const

/** Calls `onIdle` after `seconds` without a pointer, key or touch; any activity restarts the count. */
export function useIdleTimeout(seconds: number | null | undefined, onIdle: () => void): void {
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

/**
 * While `enabled`, calls `ping` on a pointer, key or touch at most once every `everyMs`. The
 * services count only calls as a staff session's activity; typing into a form makes none, so
 * without this a session could end in the services while staff are plainly at the screen.
 */
export function useActivityPing(enabled: boolean, everyMs: number, ping: () => void): void {
  const last = useRef(0)
  useEffect(() => {
    if (!enabled) return
    last.current = Date.now()
    const onActivity = () => {
      const now = Date.now()
      if (now - last.current < everyMs) return
      last.current = now
      ping()
    }
    for (const name of activity) window.addEventListener(name, onActivity, { passive: true })
    return () => {
      for (const name of activity) window.removeEventListener(name, onActivity)
    }
  }, [enabled, everyMs, ping])
}
