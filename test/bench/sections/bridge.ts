import { request } from 'undici'
import { createWebHost } from '../../../electron/host/server'
import { createDispatch } from '../../../electron/services/dispatch'
import { BRIDGE_TOKEN_HEADER } from '../../../electron/shared/web-security'
import { handlersWithoutServers } from '../../support/handlers'
import { row } from '../lib/report'
import type { BenchSection } from '../lib/section'
import { timePair } from '../lib/stats'

/** The web host's bridge: one renderer call over loopback HTTP, against a refused call's round trip. */
export const bridge: BenchSection = {
  name: 'bridge',
  async run({ quick }) {
    const engineStatus = () => ({ mode: 'embedded' as const, state: 'running' as const, url: null, pid: null, restarts: 0, lastError: null })
    const host = createWebHost({ dispatch: createDispatch(handlersWithoutServers(engineStatus)) })
    const { origin } = await host.listen(0)
    try {
      const call = (token?: string) => async () => {
        const reply = await request(`${origin}/bridge/getAppInfo`, {
          method: 'POST',
          body: '{}',
          headers: { 'content-type': 'application/json', ...(token ? { [BRIDGE_TOKEN_HEADER]: token } : {}) },
        })
        await reply.body.dump()
      }
      const [bridged, refused] = await timePair(quick ? 200 : 2000, call(host.token), call())
      const baseline = { name: 'refused call (401), same round trip', value: refused.p50, unit: 'ms' as const }
      return [row('bridge', 'getAppInfo p50', bridged.p50, 'ms', baseline)]
    } finally {
      await host.close()
    }
  },
}
