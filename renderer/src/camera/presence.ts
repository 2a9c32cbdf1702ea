/**
 * Presence: a face in view of the camera counts as someone at the kiosk, like a touch or a key.
 * The quality loop reports it; the idle timer listens (one window event, no shared store needed).
 */
const EVENT = 'kiosk-presence'

/** At most this often (ms): the loop judges ~30 frames a second, the idle timer needs far fewer. */
const EVERY_MS = 1000
let last = Number.NEGATIVE_INFINITY

export function notePresence(now = performance.now()): void {
  if (now - last < EVERY_MS) return
  last = now
  window.dispatchEvent(new Event(EVENT))
}

/** Calls `listener` whenever a face is seen; returns the unsubscribe. */
export function onPresence(listener: () => void): () => void {
  window.addEventListener(EVENT, listener)
  return () => window.removeEventListener(EVENT, listener)
}
