/**
 * A kiosk process as far as the host notices are concerned, for the SIGKILL test
 * (test/keychain/host-notices.test.ts). Run with `node --import tsx`:
 *
 *   notice-child.ts <data folder> <keychain service> <webhook URL>
 *
 * Checks a visitor in on the kiosk's own desk, with a host who has that webhook (the check-in's
 * transaction queues the notice), prints "queued <notice id>" once it is committed, and starts
 * sending; the parent kills it with SIGKILL while the POST is in flight.
 */
import { randomUUID } from 'node:crypto'
import { openLocalFrontDesk } from '../../electron/records/frontdesk/local'
import { hostNotices } from '../../electron/services/features/host-notices'
import { createKeychain } from '../../electron/services/secrets/keychain'

const [dataDir, service, webhookUrl] = process.argv.slice(2)
if (!dataDir || !service || !webhookUrl) {
  process.stderr.write('usage: notice-child.ts <data folder> <keychain service> <webhook URL>\n')
  process.exit(2)
}
const local = await openLocalFrontDesk({ dataDir })
const host = await local.frontDesk.addHost({ name: 'Grace Host', email: null, webhookUrl })
await local.frontDesk.checkIn({ person: { personUuid: randomUUID(), email: 'killed@example.com', firstName: 'Killed Midsend' }, hostId: host.id, purpose: 'Delivery', inviteToken: null, asLastTime: false, kioskId: 'front-desk-1' })
const feature = hostNotices({ database: async () => local.database, keychain: createKeychain(service), timing: { backoff: { baseMs: 20, capMs: 200 }, claimMs: 3_000 }, log: () => {} })
const [notice] = await (await feature.service()).list()
process.stdout.write(`queued ${notice!.id}\n`)
await feature.start()
