#!/usr/bin/env node
// The native modules (better-sqlite3, keytar) exist once, in node_modules, built for one ABI at a
// time: plain Node's (npm ci; the web host, the engine under tsx, every test) or Electron's (the
// desktop app). This switches them.
//
//   node resources/native-modules.mjs electron   (npm run rebuild:electron) before launching Electron
//   node resources/native-modules.mjs node       (npm run rebuild:node) to get Node's builds back
//
// Neither runs during `npm ci`: building for Electron needs Electron's headers (downloaded), which
// machines without access to Electron's download host cannot get.
import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { headersVersion } from './before-build.mjs'

const require = createRequire(import.meta.url)

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const windows = process.platform === 'win32'
export const NATIVE_MODULES = ['better-sqlite3', 'keytar']

function run(command, args, env = process.env) {
  return spawnSync(windows ? `${command}.cmd` : command, args, { cwd: root, stdio: 'inherit', env, shell: windows }).status ?? 1
}

/** Rebuilds for the installed Electron (@electron/rebuild through electron-builder). */
export function buildForElectron() {
  const env = { ...process.env }
  // A nodedir with this Node's own headers would silently give Node-ABI builds (see before-build.mjs).
  for (const name of ['npm_config_nodedir', 'NPM_CONFIG_NODEDIR']) {
    if (env[name] && headersVersion(env[name]) === process.versions.node) delete env[name]
  }
  // Straight to electron-builder's CLI with node: npx would put npm's nodedir back into the environment.
  const result = spawnSync(process.execPath, [require.resolve('electron-builder/cli.js'), 'install-app-deps'], { cwd: root, stdio: 'inherit', env })
  return result.status ?? 1
}

/** Rebuilds for this Node and forgets any Electron build (so @electron/rebuild will not skip the next one). */
export function buildForNode() {
  const status = run('npm', ['rebuild', ...NATIVE_MODULES])
  for (const name of NATIVE_MODULES) rmSync(join(root, 'node_modules', name, 'build', 'Release', '.forge-meta'), { force: true })
  return status
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = process.argv[2]
  if (target !== 'electron' && target !== 'node') {
    console.error('usage: node resources/native-modules.mjs electron|node')
    process.exit(2)
  }
  process.exit(target === 'electron' ? buildForElectron() : buildForNode())
}
