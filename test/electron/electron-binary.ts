import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { projectRoot } from '../support/process'

export type ElectronBinary = { path: string } | { reason: string }

/**
 * Where the Electron binary is, found the way node_modules/electron/index.js finds it but without
 * its fallback: `require('electron')` downloads the binary when it is missing, which hangs or fails
 * on machines that cannot reach the download host. This only looks.
 */
export function findElectronBinary(root: string = projectRoot, env: NodeJS.ProcessEnv = process.env): ElectronBinary {
  const electronDir = join(root, 'node_modules', 'electron')
  if (!existsSync(join(electronDir, 'package.json'))) return { reason: 'the electron package is not installed (run npm ci)' }
  const pathFile = join(electronDir, 'path.txt')
  const executable = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const path = join(env.ELECTRON_OVERRIDE_DIST_PATH, executable ?? 'electron')
    return existsSync(path) ? { path } : { reason: `ELECTRON_OVERRIDE_DIST_PATH is set but ${path} does not exist` }
  }
  if (!executable) {
    return { reason: 'the Electron binary was never downloaded (node_modules/electron/path.txt is missing; Electron fetches it on first use, and this machine cannot reach its download host — `npx install-electron` where it can)' }
  }
  const path = join(electronDir, 'dist', executable)
  if (!existsSync(path)) return { reason: `node_modules/electron/path.txt names ${executable}, but node_modules/electron/dist/${executable} is missing (an interrupted download?)` }
  return { path }
}
