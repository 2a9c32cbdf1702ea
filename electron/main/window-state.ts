import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { z } from 'zod'

/**
 * The window's size and position outside kiosk mode, kept in `<userData>/window-state.json`.
 * Plain Node (no 'electron' import), unit-tested. The file is validated on read: anything odd
 * (hand-edited, truncated, from a monitor that is gone) falls back to the defaults.
 */

export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

const coordinate = z.number().int().min(-100_000).max(100_000)
const size = z.number().int().min(200).max(100_000)
export const windowStateSchema = z.object({ x: coordinate, y: coordinate, width: size, height: size, maximized: z.boolean() }).strict()
export type WindowState = z.infer<typeof windowStateSchema>

export const WINDOW_STATE_FILE = 'window-state.json'
const MAX_FILE_BYTES = 4096
/** How much of the window must lie on some display for the saved position to be used. */
const MIN_VISIBLE = 120

export function loadWindowState(file: string): WindowState | null {
  let raw: string
  try {
    raw = readFileSync(file, 'utf8')
  } catch {
    return null
  }
  if (raw.length > MAX_FILE_BYTES) return null
  try {
    const parsed = windowStateSchema.safeParse(JSON.parse(raw))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** Writes atomically (temporary file + rename), so a crash never leaves half a file. */
export function saveWindowState(file: string, state: WindowState): void {
  const valid = windowStateSchema.parse(state)
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(temporary, JSON.stringify(valid), { mode: 0o600 })
  renameSync(temporary, file)
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  }
}

/**
 * The bounds to open with: the saved ones when they still fit a display (shrunk to that display's
 * work area), otherwise the default size centred on the primary display.
 */
export function restoreBounds(saved: WindowState | null, workAreas: readonly Rect[], defaults: { width: number; height: number }): { bounds: Rect; maximized: boolean } {
  const primary = workAreas[0] ?? { x: 0, y: 0, width: defaults.width, height: defaults.height }
  const centred = (width: number, height: number): Rect => {
    const w = Math.min(width, primary.width)
    const h = Math.min(height, primary.height)
    return { x: primary.x + Math.round((primary.width - w) / 2), y: primary.y + Math.round((primary.height - h) / 2), width: w, height: h }
  }
  if (!saved) return { bounds: centred(defaults.width, defaults.height), maximized: false }
  const home = workAreas.find((area) => {
    const o = overlap(saved, area)
    return o.width >= Math.min(MIN_VISIBLE, saved.width) && o.height >= Math.min(MIN_VISIBLE, saved.height)
  })
  if (!home) return { bounds: centred(saved.width, saved.height), maximized: saved.maximized }
  const width = Math.min(saved.width, home.width)
  const height = Math.min(saved.height, home.height)
  const x = Math.min(Math.max(saved.x, home.x), home.x + home.width - width)
  const y = Math.min(Math.max(saved.y, home.y), home.y + home.height - height)
  return { bounds: { x, y, width, height }, maximized: saved.maximized }
}
