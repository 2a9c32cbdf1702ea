/**
 * A kiosk process appending to the audit trail as fast as it can, for the SIGKILL test
 * (test/integration/audit-store.test.ts). Run with `node --import tsx`:
 *
 *   audit-child.ts <dir> <count>   prints "ready", then each entry's seq once append returned
 */
import { openAuditLog } from '../../electron/services/audit'

const [dir, count] = process.argv.slice(2)
const log = openAuditLog({ dir: dir!, kioskId: 'kill-test' })
process.stdout.write('ready\n')
for (let i = 0; i < Number(count); i++) {
  const entry = log.append({ action: 'verify', outcome: i % 2 ? 'ok' : 'started', role: 'visitor', account: null, subject: { userId: `v${i}@kill.example` }, score: i, correlationId: `c${i >> 1}` })
  process.stdout.write(`seq ${entry.seq}\n`)
}
log.close()
process.stdout.write('done\n')
