import { randomBytes } from 'node:crypto'
import { open, rename, unlink } from 'node:fs/promises'

/**
 * Writes a file private to this user (0600) atomically: a new file next to the target, flushed,
 * then renamed over it, so a reader sees the old file or the new one, never half of one.
 */
export async function writeAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const temp = `${file}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`
  try {
    const handle = await open(temp, 'wx', 0o600)
    try {
      await handle.chmod(0o600) // the umask may have narrowed the mode; make it exactly 0600
      await handle.writeFile(data)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, file)
  } catch (error) {
    await unlink(temp).catch(() => {})
    throw error
  }
}
