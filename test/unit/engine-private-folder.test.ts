import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createEngineLog } from '../../electron/engine/logs/engine-log'
import { securePrivateFolder } from '../../electron/engine/store/private-folder'

const modeOf = (path: string) => (lstatSync(path).mode & 0o777).toString(8)

// The engine's data folder holds the JWT signing key and client hashes: only its own user may read it.
describe('private data folder', () => {
  it('makes an existing folder 0700 and every file and folder under it private, without following links', () => {
    const root = mkdtempSync(join(tmpdir(), 'kiosk-private-'))
    const dir = join(root, 'data')
    mkdirSync(join(dir, 'logs'), { recursive: true })
    for (const file of ['engine.db', 'engine.db-wal', 'engine.db-shm', 'template.key', 'logs/engine.log', 'logs/engine.log.1']) writeFileSync(join(dir, file), 'x', { mode: 0o644 })
    chmodSync(dir, 0o755)
    chmodSync(join(dir, 'logs'), 0o755)
    // A link inside pointing out of the folder: its target must keep its mode.
    const outside = join(root, 'outside.txt')
    writeFileSync(outside, 'not ours', { mode: 0o644 })
    symlinkSync(outside, join(dir, 'logs', 'elsewhere'))

    expect(securePrivateFolder(dir)).toEqual(['logs/elsewhere'])
    expect(modeOf(dir)).toBe('700')
    expect(modeOf(join(dir, 'logs'))).toBe('700')
    for (const file of ['engine.db', 'engine.db-wal', 'engine.db-shm', 'template.key', 'logs/engine.log', 'logs/engine.log.1']) expect([file, modeOf(join(dir, file))]).toEqual([file, '600'])
    expect(modeOf(outside)).toBe('644')
  })

  it('creates a missing folder 0700 and the named files empty and 0600, leaving existing ones as they are', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'kiosk-private-')), 'new', 'data')
    securePrivateFolder(dir, ['engine.db'])
    expect(modeOf(dir)).toBe('700')
    expect([modeOf(join(dir, 'engine.db')), statSync(join(dir, 'engine.db')).size]).toEqual(['600', 0])

    writeFileSync(join(dir, 'engine.db'), 'contents')
    securePrivateFolder(dir, ['engine.db'])
    expect(readFileSync(join(dir, 'engine.db'), 'utf8')).toBe('contents')
  })

  it('writes log files 0600 in a 0700 folder, rotations included', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiosk-private-'))
    const log = createEngineLog(dir)
    log.engine('first')
    log.plugins('first')
    expect([modeOf(log.dir), modeOf(join(log.dir, 'engine.log')), modeOf(join(log.dir, 'plugins.log'))]).toEqual(['700', '600', '600'])
    // Past 5 MB the file is rotated to .1 and a new one started.
    writeFileSync(join(log.dir, 'engine.log'), Buffer.alloc(5 * 1024 * 1024 + 1, 'a'))
    log.engine('after rotation')
    expect([modeOf(join(log.dir, 'engine.log.1')), modeOf(join(log.dir, 'engine.log'))]).toEqual(['600', '600'])
    expect(readFileSync(join(log.dir, 'engine.log'), 'utf8')).toContain('after rotation')
  })
})
