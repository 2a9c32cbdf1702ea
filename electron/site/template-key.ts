import { randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The template key every engine of the site shares (templates sealed by one are read by all):
 * DIR/template.key, 32 random bytes, 0600, made on first start. Returned base64, for the engines'
 * ENGINE_TEMPLATE_KEY environment variable (never an argument: the process list shows those).
 */
export function siteTemplateKey(dir: string): string {
  const file = join(dir, 'template.key')
  try {
    // 'wx': made once; a second start, or a racing one, reads the first one's key.
    writeFileSync(file, randomBytes(32), { mode: 0o600, flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  const key = readFileSync(file)
  if (key.length !== 32) throw new Error(`${file} must hold exactly 32 bytes (it holds ${key.length}); restore it from a backup`)
  return key.toString('base64')
}
