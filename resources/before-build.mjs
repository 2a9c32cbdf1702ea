// electron-builder `beforeBuild` hook (electron-builder.yml), run before electron-builder rebuilds
// the native modules (better-sqlite3, keytar) for Electron's ABI with @electron/rebuild.
//
// An npm `nodedir` setting (npm_config_nodedir; this project's machines set nodedir=/usr so that
// `npm ci` builds keytar offline) makes node-gyp compile against *those* headers whatever target
// @electron/rebuild asks for: the "rebuilt" modules then carry plain Node's ABI, the rebuild reports
// success, and the packaged app cannot load them. When nodedir holds the headers of the Node.js
// running this build (never right for Electron), it is dropped here, so the rebuild fetches
// Electron's headers — or fails loudly where it cannot. A nodedir with Electron's own headers (an
// offline packaging machine) is left alone.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The Node.js version of the headers in `nodedir` ("20.20.2"), or null when they cannot be read. */
export function headersVersion(nodedir) {
  try {
    const header = readFileSync(join(nodedir, 'include', 'node', 'node_version.h'), 'utf8')
    const part = (name) => new RegExp(`^#define NODE_${name}_VERSION (\\d+)\\s*$`, 'm').exec(header)?.[1]
    const [major, minor, patch] = [part('MAJOR'), part('MINOR'), part('PATCH')]
    return major && minor && patch ? `${major}.${minor}.${patch}` : null
  } catch {
    return null
  }
}

export default async function beforeBuild() {
  for (const name of ['npm_config_nodedir', 'NPM_CONFIG_NODEDIR']) {
    const nodedir = process.env[name]
    if (nodedir && headersVersion(nodedir) === process.versions.node) {
      console.log(`  • before-build: ignoring ${name}=${nodedir}: those are Node ${process.versions.node}'s headers, not Electron's`)
      delete process.env[name]
    }
  }
  // true: electron-builder goes on to rebuild the native modules itself (npmRebuild).
  return true
}
