import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadWindowState, restoreBounds, saveWindowState, WINDOW_STATE_FILE } from '../../electron/main/window-state'

const dir = mkdtempSync(join(tmpdir(), 'kiosk-window-state-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const screen = { x: 0, y: 0, width: 1920, height: 1040 }
const right = { x: 1920, y: 0, width: 1280, height: 1000 }
const defaults = { width: 1280, height: 860 }

describe('window state', () => {
  it('round-trips through a small JSON file', () => {
    const file = join(dir, WINDOW_STATE_FILE)
    saveWindowState(file, { x: 10, y: 20, width: 1000, height: 700, maximized: true })
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ x: 10, y: 20, width: 1000, height: 700, maximized: true })
    expect(loadWindowState(file)).toEqual({ x: 10, y: 20, width: 1000, height: 700, maximized: true })
  })

  it('ignores a missing, corrupt, oversized or odd file', () => {
    const file = join(dir, 'odd.json')
    expect(loadWindowState(join(dir, 'missing.json'))).toBeNull()
    for (const content of ['', '{', 'null', '[]', '{"x":1}', '{"x":0,"y":0,"width":50,"height":50,"maximized":false}', '{"x":0,"y":0,"width":1e9,"height":800,"maximized":false}', '{"x":0.5,"y":0,"width":800,"height":800,"maximized":false}', '{"x":0,"y":0,"width":800,"height":800,"maximized":"yes"}', '{"x":0,"y":0,"width":800,"height":800,"maximized":false,"extra":1}', ' '.repeat(5000)]) {
      writeFileSync(file, content)
      expect(loadWindowState(file), content.slice(0, 40)).toBeNull()
    }
    expect(() => saveWindowState(file, { x: 0, y: 0, width: 10, height: 10, maximized: false })).toThrow()
  })

  it('restores the saved bounds when they still fit a display', () => {
    expect(restoreBounds({ x: 100, y: 50, width: 1000, height: 700, maximized: false }, [screen, right], defaults)).toEqual({ bounds: { x: 100, y: 50, width: 1000, height: 700 }, maximized: false })
    expect(restoreBounds({ x: 2000, y: 100, width: 1000, height: 700, maximized: true }, [screen, right], defaults)).toEqual({ bounds: { x: 2000, y: 100, width: 1000, height: 700 }, maximized: true })
  })

  it('pulls a window that hangs off its display back in, and shrinks it to fit', () => {
    expect(restoreBounds({ x: 1500, y: 900, width: 1000, height: 700, maximized: false }, [screen], defaults).bounds).toEqual({ x: 920, y: 340, width: 1000, height: 700 })
    expect(restoreBounds({ x: 0, y: 0, width: 3000, height: 2000, maximized: false }, [screen], defaults).bounds).toEqual({ x: 0, y: 0, width: 1920, height: 1040 })
  })

  it('centres the window on the primary display when the saved one is gone or there is none', () => {
    expect(restoreBounds({ x: 2000, y: 100, width: 1000, height: 700, maximized: false }, [screen], defaults).bounds).toEqual({ x: 460, y: 170, width: 1000, height: 700 })
    expect(restoreBounds(null, [screen, right], defaults)).toEqual({ bounds: { x: 320, y: 90, width: 1280, height: 860 }, maximized: false })
    expect(restoreBounds(null, [{ x: 0, y: 0, width: 1024, height: 700 }], defaults).bounds).toEqual({ x: 0, y: 0, width: 1024, height: 700 })
  })
})
