import { randomUUID } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** This install's id, for audit entries: made once, kept in the data folder (not a secret). */
export function kioskId(dataDir: string): string {
  const file = join(dataDir, 'kiosk-id')
  try {
    const id = readFileSync(file, 'utf8').trim()
    if (/^[0-9a-f-]{36}$/.test(id)) return id
  } catch {
    // first start: made below
  }
  const id = randomUUID()
  writeFileSync(file, `${id}\n`, { mode: 0o600 })
  return id
}
