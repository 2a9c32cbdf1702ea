import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Makes the engine's data folder private to this user, at every start: the folder (created if
 * missing) and every folder under it 0700, every regular file under it 0600, whatever modes an
 * older engine or a copy left them with. `create` names files to make empty (0600) when missing,
 * so that whoever writes them later does not pick their mode: SQLite would create engine.db 0644
 * under the usual umask, and gives its -wal and -shm files the database file's mode.
 *
 * Symbolic links inside are skipped, never followed: chmod would change whatever they point to.
 * The folder itself is taken as named, even through a link (it is the configured path). Returns
 * the skipped links, relative to `dir`, for the caller to log.
 */
export function securePrivateFolder(dir: string, create: readonly string[] = []): string[] {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  chmodSync(dir, 0o700)
  for (const name of create) {
    try {
      // O_EXCL: an existing file, or a link in its place, is left as it is.
      closeSync(openSync(join(dir, name), 'wx', 0o600))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  }
  const skipped: string[] = []
  const walk = (folder: string, prefix: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name)
      const entry = lstatSync(path, { throwIfNoEntry: false })
      if (!entry) continue // removed meanwhile (SQLite drops its -wal and -shm on close)
      if (entry.isSymbolicLink()) skipped.push(prefix + name)
      else if (entry.isDirectory()) {
        chmodSync(path, 0o700)
        walk(path, `${prefix}${name}/`)
      } else if (entry.isFile()) chmodSync(path, 0o600)
    }
  }
  walk(dir, '')
  return skipped
}
