#!/usr/bin/env node
// npm run dist [-- electron-builder args, e.g. --linux or --win]: builds the kiosk, makes the icons
// and packages it with electron-builder (electron-builder.yml).
//
// electron-builder rebuilds better-sqlite3 and keytar *in node_modules* for Electron's ABI (and a
// rebuild that fails half-way deletes their build folder). The same node_modules serve the web host,
// the engine and the tests on plain Node, so whatever happened, their Node builds are put back
// afterwards (offline where npm's nodedir points at Node's headers).
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildForNode, NATIVE_MODULES } from './native-modules.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const windows = process.platform === 'win32'

function step(label, command, args) {
  console.log(`dist: ${label}`)
  return spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: windows }).status ?? 1
}

const npx = windows ? 'npx.cmd' : 'npx'
let status = step('building', npx, ['electron-vite', 'build'])
if (status === 0) status = step('making icons', process.execPath, [join(root, 'resources/make-icons.mjs')])
if (status === 0) {
  status = step('packaging', npx, ['electron-builder', '--publish', 'never', ...process.argv.slice(2)])
  console.log(`dist: restoring the Node builds of ${NATIVE_MODULES.join(', ')}`)
  if (buildForNode() !== 0) console.error('dist: run `npm run rebuild:node` before running the tests or the web host again.')
}
if (status === 0) console.log('dist: packages are in dist/')
process.exit(status)
