import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { projectRoot } from '../support/process'

const rendererDir = join(projectRoot, 'renderer/src')
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.tsx?$/.test(entry.name) ? [path] : []
  })
const callers = (method: string) =>
  sources(rendererDir)
    .filter((file) => readFileSync(file, 'utf8').includes(`kiosk.${method}(`))
    .map((file) => relative(projectRoot, file))

// The engine's state and the app info reach the screens one way: the live store, fed by pushed
// events with a slow safety read. A second reader (a 3 s poll beside the events) did the same job twice.
describe('one live-state store', () => {
  it.each(['getEngineStatus', 'getAppInfo'])('%s is read by the live store only', (method) => {
    expect(callers(method)).toEqual(['renderer/src/store/live.ts'])
  })

  it('the live store follows the pushed events, and its safety read is slow', () => {
    const source = readFileSync(join(rendererDir, 'store/live.ts'), 'utf8')
    expect(source).toContain('kiosk.onEvent(')
    // The store reads `window` at import, so its constant is read from the source (a browser-only module).
    const poll = /export const SAFETY_POLL_MS = ([\d_]+)/.exec(source)?.[1]
    expect(Number(poll?.replaceAll('_', ''))).toBeGreaterThanOrEqual(10_000)
    expect(source).toContain('setInterval(() => get().reload(), SAFETY_POLL_MS)')
    expect(sources(rendererDir).filter((file) => /setInterval\([^)]*(refresh|getEngineStatus)/.test(readFileSync(file, 'utf8')))).toEqual([])
  })
})
