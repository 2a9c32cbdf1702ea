import type { Flooder } from './flood'
import { blankPngsBase64, deeplyNestedJson, identifyWithSamples, manySmallObjectsJson, verifyWithSamples } from './hostile-payloads'

/** The three kinds of hostile traffic the engine is hardened against. */
export const FLOOD_KINDS = ['bad-secret', 'big-bodies', 'amplification'] as const
export type FloodKind = (typeof FLOOD_KINDS)[number]

/**
 * What the flooders need to know about their engine. Plain values only: the flood child process
 * gets this as JSON and must not load the engine's modules.
 */
export interface FloodTarget {
  url: string
  /** A valid bearer token (the amplifying kind is authenticated). */
  token: string
  /** The configured client, which the bad-secret kind sends wrong secrets for. */
  clientId: string
  tenant: string
  /** `Face:<plugin>`, the template type of the amplifying identify/verify inputs. */
  templateType: string
  /** An enrolled person, the amplifying verify's target. */
  personId: string
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`

/** The flooders of `kinds` against `target`; only the payloads those kinds send are made. */
export async function buildFlooders(target: FloodTarget, kinds: readonly FloodKind[]): Promise<Flooder[]> {
  const json = { 'content-type': 'application/json' }
  const build: Record<FloodKind, () => Promise<Flooder>> = {
    // Each wrong secret costs the engine a scrypt hash (on its event loop, today).
    'bad-secret': async () => ({
      kind: 'bad-secret',
      concurrency: 32,
      request: (i) => ({
        method: 'POST',
        path: '/v2/oauth2/oauth/token?grant_type=client_credentials&scope=SCOPE_TENANT_ADMIN',
        headers: { authorization: basic(target.clientId, `wrong-secret-${i}`) },
      }),
    }),
    // Unauthenticated 30 MB bodies, both shapes to both halves of the engine.
    'big-bodies': async () => {
      const bodies = [deeplyNestedJson(30), manySmallObjectsJson(30)]
      const bodyTargets = [`/v2/gmiserver/tenant/${target.tenant}/person`, '/bioengine/identify']
      return {
        kind: 'big-bodies',
        concurrency: 4,
        request: (i) => ({ method: 'POST', path: bodyTargets[i % 2]!, headers: json, body: bodies[Math.floor(i / 2) % 2] }),
      }
    },
    // With a valid token: a hundred 4096² images to decode and run through the face models per request.
    amplification: async () => {
      const pngs = await blankPngsBase64()
      // 100: the engine's MAX_INPUTS today, the most one request may carry.
      const identify = identifyWithSamples(target.templateType, pngs, 100)
      const verify = verifyWithSamples(target.templateType, pngs, 100)
      const bearer = { ...json, authorization: `Bearer ${target.token}` }
      return {
        kind: 'amplification',
        concurrency: 2,
        request: (i) =>
          i % 2 === 0
            ? { method: 'POST', path: '/bioengine/identify', headers: bearer, body: identify }
            : { method: 'POST', path: `/bioengine/persons/${encodeURIComponent(target.personId)}/verify`, headers: bearer, body: verify },
      }
    },
  }
  return Promise.all(kinds.map((kind) => build[kind]()))
}
