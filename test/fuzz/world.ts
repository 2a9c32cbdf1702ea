import fc from 'fast-check'
import { TEST_TENANT, type TestEngine } from '../support/engine'
import { PROTO_KEYS } from './hostile'
import type { FuzzImages } from './images'
import type { Hints } from './schema-arb'

/** What exists in the engine before fuzzing, so generated ids can name real things. */
export interface World {
  uuids: string[]
  userIds: string[]
  templateTypes: string[]
  pluginNames: string[]
  /** A real template (base64) of the first template type. */
  template: string
}

async function ok<T = unknown>(t: TestEngine, method: string, path: string, body?: unknown): Promise<T> {
  const reply = await t.call(method, path, body)
  if (reply.status >= 300) throw new Error(`setup ${method} ${path}: HTTP ${reply.status} ${JSON.stringify(reply.body)}`)
  return reply.body as T
}

/** Three persons (one enrolled), an app and an algorithm on the test tenant, a template in hand. */
export async function buildWorld(t: TestEngine, images: FuzzImages): Promise<World> {
  const userIds = ['fuzz-0@example.com', 'fuzz-1@example.com', 'fuzz-2@example.com']
  const uuids: string[] = []
  for (const userId of userIds) uuids.push((await ok<{ uuid: string }>(t, 'POST', `/v2/gmiserver/tenant/${TEST_TENANT}/person`, { userId })).uuid)
  const { templateTypes } = await ok<{ templateTypes: Array<{ templateType: string }> }>(t, 'GET', '/bioengine/template-types')
  const types = templateTypes.map((x) => x.templateType)
  const face = images.face.toString('base64')
  await ok(t, 'POST', `/bioengine/persons/${uuids[0]}/biometrics`, { templateType: types[0], templateContext: 'c1', samples: [face] })
  const { templatedata } = await ok<{ templatedata: string }>(t, 'POST', '/bioengine/biometrics', { templateType: types[0], samples: [face] })
  await ok(t, 'PUT', `/v2/gmiserver/tenant/${TEST_TENANT}/app/APP1`)
  await ok(t, 'PUT', `/v2/gmiserver/tenant/${TEST_TENANT}/svrgrp/main/alg/ALG1`, {})
  return { uuids, userIds, templateTypes: types, pluginNames: types.map((type) => type.split(':')[1]!), template: templatedata }
}

/** Good values and near misses by field or parameter name, for the generators (see Hints). */
export function hintsFor(world: World, images: FuzzImages): Hints {
  const { samples } = images
  const sample = fc.oneof({ arbitrary: fc.constantFrom(...images.decodable), weight: 1 }, { arbitrary: fc.constantFrom(...samples), weight: 2 })
  const table: Record<string, [good: fc.Arbitrary<unknown>, tricky: fc.Arbitrary<unknown>]> = {
    uuid: [fc.constantFrom(...world.uuids), fc.constantFrom('00000000-0000-4000-8000-000000000000', world.uuids[0]!.toUpperCase())],
    personid: [fc.constantFrom(...world.uuids, ...world.userIds), fc.constantFrom('nobody', '__proto__', 'constructor')],
    tenant: [fc.constant(TEST_TENANT), fc.constantFrom('NO_SUCH_TENANT', TEST_TENANT.toLowerCase())],
    code: [fc.constant(TEST_TENANT), fc.constantFrom('FUZZ_TENANT')],
    app: [fc.constant('APP1'), fc.constant('APP2')],
    alg: [fc.constant('ALG1'), fc.constant('ALG2')],
    liveness: [fc.constant('LIV1'), fc.constant('LIV2')],
    templatetype: [fc.constantFrom(...world.templateTypes), fc.constantFrom('Face:Nope', 'Iris:Any', 'Face:toString')],
    templatecontext: [fc.constantFrom('c1', 'c2'), fc.constantFrom('__proto__', 'a:b')],
    pluginname: [fc.constantFrom(...world.pluginNames), fc.constantFrom('Nope', 'constructor')],
    userid: [fc.constantFrom(...world.userIds), fc.constantFrom('new-fuzz@example.com', 'not-an-email')],
    deviceid: [fc.constantFrom('dev-1', 'dev-2'), fc.constant('')],
    sort: [fc.constantFrom('userId', '-created', '+uuid', 'modified'), fc.constantFrom('nope', '--userId', 'user_id')],
    pagesize: [fc.constantFrom('1', '20', '100'), fc.constantFrom('0', '-1', '101', 'abc', '1.5', '1e3')],
    pageno: [fc.constantFrom('0', '1', '1000000'), fc.constantFrom('-1', '1000001', 'abc')],
    find: [fc.constantFrom('fuzz', 'example'), fc.constantFrom('%', '_', "'", 'x'.repeat(257))],
    notempty: [fc.constantFrom('deviceId', 'templates', 'tenants'), fc.constantFrom('true', '')],
    sample: [sample, fc.constantFrom(...samples)],
    samples: [fc.array(sample, { minLength: 1, maxLength: 3 }), fc.array(sample, { minLength: 0, maxLength: 11 })],
    template: [fc.constant(world.template), fc.constantFrom('QktU', 'QktUIGdhcmJhZ2UgZ2FyYmFnZQ==', ...samples.slice(-4))],
    thresholdvalue: [fc.constantFrom(0, 48, 100), fc.constantFrom(-1, 101, 1e308)],
    maxresults: [fc.constantFrom(1, 10, 100), fc.constantFrom(0, 101, 1.5)],
    grant_type: [fc.constant('client_credentials'), fc.constantFrom('password', '')],
    scope: [fc.constant('SCOPE_TENANT_ADMIN'), fc.constantFrom('SCOPE_TENANT_ADMIN SCOPE_OTHER', '', ' ')],
    name: [fc.constant('Fuzz tenant'), fc.constant('')],
    maxidentities: [fc.constantFrom(0, 5, 100_000_000), fc.constantFrom(-1, 1.5)],
  }
  // Any near miss may also name an Object.prototype member (sort=constructor): lookups keyed by it find functions.
  const proto = fc.constantFrom(...PROTO_KEYS)
  return (name) => {
    const hint = table[name]
    return hint && { good: hint[0], tricky: fc.oneof(hint[1], proto) }
  }
}
