import { chmod, mkdir, readFile, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { writeAtomic } from '../private-file'

export const LOGO_DIR = 'branding'
export const LOGO_FILE = 'logo.png'

export interface LogoStore {
  readonly file: string
  /** The stored PNG, or null when there is none (or it cannot be read: logged, and the screens show no logo). */
  read(): Promise<Buffer | null>
  /** Replaces the logo with an already sanitised PNG (./logo-image.ts), atomically, 0600 in a 0700 folder. */
  write(png: Buffer): Promise<void>
  /** Removes it; no logo is not an error. */
  clear(): Promise<void>
}

/** The organisation's logo: one file in the data folder, only ever the services' own re-encoded PNG. */
export function createLogoStore(options: { dataDir: string; log: (line: string) => void }): LogoStore {
  const dir = join(options.dataDir, LOGO_DIR)
  const file = join(dir, LOGO_FILE)
  return {
    file,
    async read() {
      try {
        return await readFile(file)
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        if (code !== 'ENOENT') options.log(`kiosk: branding: cannot read ${file} (${code ?? 'unknown error'}); showing no logo`)
        return null
      }
    },
    async write(png) {
      await mkdir(dir, { recursive: true, mode: 0o700 })
      await chmod(dir, 0o700) // the umask may have narrowed it; an existing folder keeps whatever it had
      await writeAtomic(file, png)
    },
    async clear() {
      await unlink(file).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error
      })
    },
  }
}
