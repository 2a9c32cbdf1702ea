import { mkdir, readFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { KioskError } from '../shared/errors'
import { writeAtomic } from './private-file'
import {
  settingsPatchSchema,
  settingsSchema,
  storedSettingsSchema,
  type KioskSettings,
  type KioskSettingsInput,
  type SettingsPatch,
} from '../shared/settings'

export const SETTINGS_FILE = 'settings.json'

export interface SettingsStoreOptions {
  /** The kiosk's data folder (defaultDataDir()); created if missing. */
  dataDir: string
  /** One line per notable event (a file set aside, a write that failed). Never given a value from the file. */
  log?: (line: string) => void
  /** The clock, for the name of a set-aside file. */
  now?: () => Date
}

export interface SettingsStore {
  /** The settings file's full path. */
  readonly file: string
  /**
   * The saved settings, or the defaults when there are none. Never throws: an unreadable, corrupt or
   * invalid file gives the defaults, and a corrupt or invalid one is kept aside as
   * settings.json.corrupt-<timestamp> with a log line.
   */
  load(): Promise<KioskSettings>
  /** Validates and saves complete settings (missing fields take defaults). Throws INVALID_INPUT. */
  save(settings: KioskSettingsInput): Promise<KioskSettings>
  /** Changes only the given fields of the saved settings, validates the result and saves it. Throws INVALID_INPUT. */
  update(patch: SettingsPatch): Promise<KioskSettings>
}

/**
 * The kiosk's non-secret settings as JSON in the data folder. Writes are atomic (a private temp
 * file, fsync, rename) and the file is readable by this user only (0600). Operations run one at a
 * time, so an update never loses a concurrent one and a corrupt file is never set aside while a
 * good one is being written. Secrets never come here: the schema has no field for one and rejects
 * unknown fields.
 */
export function createSettingsStore(options: SettingsStoreOptions): SettingsStore {
  const { dataDir } = options
  const log = options.log ?? ((line: string) => console.error(line))
  const now = options.now ?? (() => new Date())
  const file = join(dataDir, SETTINGS_FILE)

  let queue: Promise<unknown> = Promise.resolve()
  function serial<T>(op: () => Promise<T>): Promise<T> {
    const run = queue.then(op, op)
    queue = run.catch(() => {})
    return run
  }

  async function read(): Promise<KioskSettings> {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') {
        log(`kiosk: settings: cannot read ${file} (${errorCode(error)}); using the default settings`)
      }
      return settingsSchema.parse({})
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      // JSON.parse's message quotes the text, so it is not logged.
      return setAside('is not valid JSON')
    }
    const parsed = storedSettingsSchema.safeParse(json)
    if (!parsed.success) return setAside(`is not valid (${describeIssues(parsed.error)})`)
    return parsed.data
  }

  async function setAside(reason: string): Promise<KioskSettings> {
    const aside = `${file}.corrupt-${now().toISOString().replace(/[:.]/g, '-')}`
    try {
      await rename(file, aside)
      log(`kiosk: settings: ${file} ${reason}; kept it as ${aside} and using the default settings`)
    } catch (error) {
      log(`kiosk: settings: ${file} ${reason}, and it could not be kept aside (${errorCode(error)}); using the default settings`)
    }
    return settingsSchema.parse({})
  }

  async function write(input: unknown): Promise<KioskSettings> {
    const parsed = settingsSchema.safeParse(input)
    if (!parsed.success) throw new KioskError('INVALID_INPUT', `Invalid settings: ${z.prettifyError(parsed.error)}`)
    try {
      await mkdir(dataDir, { recursive: true, mode: 0o700 })
      await writeAtomic(file, `${JSON.stringify(parsed.data, null, 2)}\n`)
    } catch (error) {
      log(`kiosk: settings: cannot write ${file} (${errorCode(error)})`)
      throw new KioskError('INTERNAL', `The kiosk could not save its settings (${errorCode(error)}).`)
    }
    return parsed.data
  }

  return {
    file,
    load: () => serial(read),
    save: (settings) => serial(() => write(settings)),
    update: (patch) =>
      serial(async () => {
        const parsed = settingsPatchSchema.safeParse(patch)
        if (!parsed.success) throw new KioskError('INVALID_INPUT', `Invalid settings: ${z.prettifyError(parsed.error)}`)
        const changes = Object.fromEntries(Object.entries(parsed.data).filter(([, value]) => value !== undefined))
        return write({ ...(await read()), ...changes })
      }),
  }
}

/** Field paths and rule messages only: never a value from the file. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : 'file'}: ${issue.message}`)
    .join('; ')
}

function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code
  return typeof code === 'string' ? code : 'unknown error'
}
