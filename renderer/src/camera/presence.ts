/**
 * Presence: a face in view of the camera counts as someone at the kiosk, like a touch or a key, and
 * so does a call the person is waiting on (a slow enrollment on a busy machine must not be reset
 * under them). The quality loop and the bridge report it; the idle timer listens (one window event,
 * no shared store needed).
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

let waiting = 0

/** True while a call someone waits on is in flight: the idle timer does not run out meanwhile. */
export const awaitingReply = (): boolean => waiting > 0

/** Marks `work` as awaited by the person at the screen; its end counts as presence (the answer is read from then). */
export async function awaited<T>(work: () => Promise<T>): Promise<T> {
  waiting++
  try {
    return await work()
  } finally {
    waiting--
    last = Number.NEGATIVE_INFINITY
    notePresence()
  }
}
