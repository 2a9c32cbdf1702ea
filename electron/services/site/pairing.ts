import { PAIRING_CODE_HEADER, type KioskRecords, type PairResult } from '../../shared/frontdesk-api'
import { HttpClient } from '../clients/http-client'
import { sendRoute } from './site-http'

export interface PairRequest {
  url: string
  code: string
  name: string
  connectTimeoutMs: number
  requestTimeoutMs: number
  /** What a kiosk that ran on its own brings (its administrator's choice): merged by the site in the pairing's transaction. */
  records?: KioskRecords
}

/**
 * How long a site may take to answer a pairing that brings records: it takes them all in in one
 * transaction before it answers (thousands of visits on a busy door), far longer than an ordinary
 * call. Given up earlier, the kiosk could not tell whether the site took them.
 */
export const PAIR_WITH_RECORDS_TIMEOUT_MS = 5 * 60_000

/**
 * Redeems a pairing code at a site (POST /frontdesk/v1/pair, no token: the single-use code is the
 * credential). The site answers with this kiosk's id and its own OAuth client; a used, expired or
 * wrong code comes back as the site's refusal, in its words.
 */
export async function pairWithSite(request: PairRequest): Promise<PairResult> {
  const requestTimeoutMs = request.records ? Math.max(request.requestTimeoutMs, PAIR_WITH_RECORDS_TIMEOUT_MS) : request.requestTimeoutMs
  const http = new HttpClient({ baseUrl: request.url, name: 'The site', connectTimeoutMs: request.connectTimeoutMs, requestTimeoutMs, connections: 1 })
  try {
    // Records make a large body: the site reads it only for a code that would pair now, named in the header too.
    const headers: Record<string, string> = request.records ? { [PAIRING_CODE_HEADER]: request.code } : {}
    return await sendRoute(http, 'pair', { body: { code: request.code, name: request.name, ...(request.records ? { records: request.records } : {}) } }, headers)
  } finally {
    await http.close()
  }
}
