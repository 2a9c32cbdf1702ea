import type { Backend } from '../backend'
import { backendProbe } from '../outbox'
import type { Feature } from './feature'

/**
 * Whether the servers answer, as the kiosk last found: told by each decision and delivery. While
 * it decides offline, it asks the servers every 15 s whether they answer again; when they do,
 * `onBack` runs once.
 */
export function reachability(deps: { backend: () => Promise<Backend>; onBack: () => void }): Feature & { reachable(answered: boolean): void } {
  let offline = false
  const reachable = (answered: boolean) => {
    if (answered && offline) deps.onBack()
    offline = !answered
  }
  const recheck = setInterval(() => {
    if (!offline) return
    void deps
      .backend()
      .then((servers) => backendProbe(servers)(AbortSignal.timeout(5_000)))
      .then((answered) => answered && reachable(true))
      .catch(() => undefined)
  }, 15_000)
  recheck.unref()
  return { reachable, handlers: {}, stop: () => clearInterval(recheck) }
}
