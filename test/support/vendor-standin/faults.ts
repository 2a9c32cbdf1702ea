import type { ServerResponse } from 'node:http'
import type { Reply, ServerModule } from './strict'
import type { FaultKind, FaultRule } from './types'

/** Injected faults, each used up after `times` matching requests. */
export class FaultBook {
  private readonly rules: Array<FaultRule & { times: number }> = []

  add(rule: FaultRule): void {
    this.rules.push({ ...rule, times: rule.times ?? 1 })
  }

  take(server: 'person' | 'bio', method: string, url: string): FaultKind | null {
    const rule = this.rules.find((r) => {
      r.path.lastIndex = 0 // a /g or /y pattern must not carry state between requests
      return r.times > 0 && (!r.server || r.server === server) && (!r.method || r.method.toUpperCase() === method) && r.path.test(url)
    })
    if (!rule) return null
    rule.times--
    return rule.fault
  }
}

/**
 * The reply for a fault that pre-empts the request (the request is not applied), or null when
 * none is sent. lost-reply is not handled here: index.ts applies the request first, then drops it.
 */
export function preempt(fault: Exclude<FaultKind, 'lost-reply'>, res: ServerResponse, server: ServerModule, forgetToken: () => void): Reply | null {
  switch (fault) {
    case 'status500':
      return server.error(500, 'injected fault: internal server error')
    case 'garbage':
      return { status: 200, raw: { type: 'application/json', data: Buffer.from('{"content": [ {"id": <<<not json') } }
    case 'expired-token':
      // The token really stops working: the client has to fetch a new one.
      forgetToken()
      return server.expired()
    case 'reset':
      res.socket?.destroy()
      return null
    case 'hang':
      return null // never answered: the client gives up, or close() ends it
  }
}
