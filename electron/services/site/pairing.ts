import type { PairResult } from '../../shared/frontdesk-api'
import { HttpClient } from '../clients/http-client'
import { sendRoute } from './site-http'

export interface PairRequest {
  url: string
  code: string
  name: string
  connectTimeoutMs: number
  requestTimeoutMs: number
}

/**
 * Redeems a pairing code at a site (POST /frontdesk/v1/pair, no token: the single-use code is the
 * credential). The site answers with this kiosk's id and its own OAuth client; a used, expired or
 * wrong code comes back as the site's refusal, in its words.
 */
export async function pairWithSite(request: PairRequest): Promise<PairResult> {
  const http = new HttpClient({ baseUrl: request.url, name: 'The site', connectTimeoutMs: request.connectTimeoutMs, requestTimeoutMs: request.requestTimeoutMs, connections: 1 })
  try {
    return await sendRoute(http, 'pair', { body: { code: request.code, name: request.name } }, {})
  } finally {
    await http.close()
  }
}
