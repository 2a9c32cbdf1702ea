import { useEffect, useRef, useState } from 'react'
import { awaitingReply, onPresence } from '../camera/presence'
import { IdleClock, type IdlePhase } from './idle-clock'

const activity = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const

export interface Idle {
  /** 'warning': show "Still there?" with the seconds left; the screen (and a result on it) stays meanwhile. */
  phase: IdlePhase
  /** "I'm still here". */
  stillHere(): void
}

/**
 * Calls `onIdle` once nobody has been there for `seconds` plus the 10 s "Still there?" countdown.
 * A pointer, key or touch, a face the camera's quality loop sees, or a call still being awaited
 * (presence.ts) starts the count again, also during the countdown.
 */
export function useIdleTimeout(seconds: number | null | undefined, onIdle: () => void): Idle {
  const [phase, setPhase] = useState<IdlePhase>({ kind: 'active' })
  const lookRef = useRef<() => void>(() => {})

  useEffect(() => {
    setPhase({ kind: 'active' })
    if (!seconds) return
    const clock = new IdleClock(seconds * 1000, performance.now())
    let timer: ReturnType<typeof setTimeout> | undefined
    const look = () => {
      clearTimeout(timer)
      const now = performance.now()
      if (awaitingReply()) clock.activity(now)
      const next = clock.phase(now)
      if (next.kind === 'expired') {
        clock.activity(now) // the next visitor starts a fresh count
        setPhase({ kind: 'active' })
        onIdle()
        timer = setTimeout(look, clock.nextChange(now))
        return
      }
      setPhase((shown) => (shown.kind === next.kind && (next.kind !== 'warning' || (shown.kind === 'warning' && shown.secondsLeft === next.secondsLeft)) ? shown : next))
      timer = setTimeout(look, clock.nextChange(now))
    }
    const restart = () => {
      clock.activity(performance.now())
      look()
    }
    lookRef.current = restart
    look()
    for (const name of activity) window.addEventListener(name, restart, { passive: true })
    const stopPresence = onPresence(restart)
    return () => {
      clearTimeout(timer)
      stopPresence()
      lookRef.current = () => {}
      for (const name of activity) window.removeEventListener(name, restart)
    }
  }, [seconds, onIdle])

  return { phase, stillHere: () => lookRef.current() }
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
