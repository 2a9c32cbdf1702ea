import { describe, expect, it } from 'vitest'
import { parseEngineArgs } from '../../electron/engine/cli-args'

const base = ['--port', '0', '--data', '/tmp/engine']
const primary = 'postgres://kiosk@127.0.0.1:5433/kiosk'
const reads = 'postgres://kiosk@127.0.0.1:5434/kiosk'

describe('the engine command line: where a site engine reads while its primary is away', () => {
  it('takes --read-database beside --database', () => {
    expect(parseEngineArgs([...base, '--database', primary, '--read-database', reads], {})).toMatchObject({ database: primary, readDatabase: reads })
    expect(parseEngineArgs([...base, '--database', primary], {}).readDatabase).toBeUndefined()
    expect(parseEngineArgs(base, { ENGINE_DATABASE_URL: primary, ENGINE_READ_DATABASE_URL: reads })).toMatchObject({ database: primary, readDatabase: reads })
  })

  it('refuses --read-database alone, one that is not postgres://, and one with a password in the process list', () => {
    expect(() => parseEngineArgs([...base, '--read-database', reads], {})).toThrow(/--read-database goes with --database/)
    expect(() => parseEngineArgs([...base, '--database', primary, '--read-database', 'mysql://x@h/db'], {})).toThrow(/--read-database must be a postgres:\/\/ URL/)
    expect(() => parseEngineArgs([...base, '--database', primary, '--read-database', 'postgres://kiosk:secret@h/db'], {})).toThrow(/--read-database must not carry a password/)
  })
})
