/**
 * A kiosk process as far as the host notices are concerned, for the SIGKILL test
 * (test/keychain/host-notifications.test.ts). Run with `node --import tsx`:
 *
 *   notice-child.ts <data folder> <keychain service> <webhook URL>
 *
 * Queues one arrival for a host with that webhook, prints "queued <notice id>" once it is
 * committed, and starts sending; the parent kills it with SIGKILL while the POST is in flight.
 */
import { hostNotifications } from '../../electron/services/features/host-notifications'
import { createKeychain } from '../../electron/services/secrets/keychain'

const [dataDir, service, webhookUrl] = process.argv.slice(2)
if (!dataDir || !service || !webhookUrl) {
  process.stderr.write('usage: notice-child.ts <data folder> <keychain service> <webhook URL>\n')
  process.exit(2)
}
const feature = hostNotifications({ dataDir, keychain: createKeychain(service), timing: { backoff: { baseMs: 20, capMs: 200 }, leaseTtlMs: 3_000 }, log: () => {} })
const [notice] = feature.enqueueArrival({
  visitId: 'visit-killed-mid-send',
  host: { id: 'host-1', name: 'Grace Host', email: null, webhookUrl },
  visitorName: 'Killed Midsend',
  purpose: 'Delivery',
  arrivedAt: new Date().toISOString(),
  kioskId: 'front-desk-1',
})
process.stdout.write(`queued ${notice!.id}\n`)
feature.start()
