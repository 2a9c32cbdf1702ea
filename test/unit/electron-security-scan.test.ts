import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatFinding, isBlocking, scannedFiles, scanWithElectronegativity, suppressionComments, type ScanResult } from '../security/electronegativity'

// The Electron security checklist as a test: @doyensec/electronegativity over electron/ and
// renderer/ (offline; see test/security/electronegativity.ts). `npm run security` prints the report.
const FOLDERS = ['electron', 'renderer']
let scan: ScanResult

beforeAll(async () => {
  scan = await scanWithElectronegativity(FOLDERS)
}, 60_000)

describe('electronegativity scan of electron/ and renderer/', () => {
  it('reads every file', () => {
    expect(scan.filesScanned).toBeGreaterThan(50)
    expect(scan.checks).toBeGreaterThan(30)
    expect(scan.errors.filter((error) => !error.tolerable)).toEqual([])
  })

  it('leaves no HIGH or MEDIUM finding unless it is justified inline', () => {
    const blocking = scan.findings.filter(isBlocking).map(formatFinding)
    expect(blocking, `unjustified findings:\n${blocking.join('\n')}`).toEqual([])
  })

  it('has a written reason beside every suppression, and no stale or file-wide one', () => {
    const comments = suppressionComments(scannedFiles(FOLDERS))
    for (const comment of comments) {
      const where = `${comment.file}:${comment.line}`
      expect(comment.reason, `${where}: write "// justified: <why>" on the eng-disable line`).not.toBeNull()
      expect(comment.fileWide, `${where}: suppress findings line by line, not for a whole file`).toBe(false)
      const silenced = scan.findings.filter((f) => f.suppressed === 'inline' && f.file === comment.file && f.line === comment.line)
      expect(silenced.map((f) => f.id), `${where}: this eng-disable silences nothing any more; remove it`).not.toEqual([])
    }
    for (const finding of scan.findings.filter((f) => f.suppressed === 'inline')) {
      expect(comments.some((c) => c.file === finding.file && c.line === finding.line && c.ids.includes(finding.id)), formatFinding(finding)).toBe(true)
    }
  })
})

describe('the scan itself', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kiosk-eng-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('fails an insecure window, so a green scan means something', async () => {
    writeFileSync(
      join(dir, 'main.ts'),
      [
        "import { BrowserWindow, shell } from 'electron'",
        'export function open(url: string) {',
        '  const w = new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false, webSecurity: false } })',
        '  void shell.openExternal(url)',
        '  return w',
        '}',
      ].join('\n'),
    )
    const planted = await scanWithElectronegativity([dir])
    const ids = planted.findings.filter(isBlocking).map((f) => f.id)
    expect(ids).toEqual(expect.arrayContaining(['CONTEXT_ISOLATION_JS_CHECK', 'SANDBOX_JS_CHECK', 'WEB_SECURITY_JS_CHECK', 'OPEN_EXTERNAL_JS_CHECK', 'LIMIT_NAVIGATION_GLOBAL_CHECK']))
  }, 60_000)

  it('finds a suppression that gives no reason', () => {
    const file = join(dir, 'bare.ts')
    writeFileSync(file, "\nvoid shell.openExternal(url) /* eng-disable OPEN_EXTERNAL_JS_CHECK */\nvoid shell.openExternal(url) /* eng-disable OPEN_EXTERNAL_JS_CHECK */ // justified: a literal allow-listed URL\n")
    expect(suppressionComments([file]).map((c) => [c.line, c.ids, c.reason])).toEqual([
      [2, ['OPEN_EXTERNAL_JS_CHECK'], null],
      [3, ['OPEN_EXTERNAL_JS_CHECK'], 'a literal allow-listed URL'],
    ])
  })
})
