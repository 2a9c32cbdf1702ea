#!/usr/bin/env node
// npm start: the Electron app on the embedded engine. Where no Electron binary can be had (it is
// fetched on first use and some machines cannot reach it), say so in one line and run the web host.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'

function electronBinary() {
  // require('electron') resolves the binary, downloading it first if needed; its noise stays here.
  const probe = spawnSync(process.execPath, ['-e', "console.log('ELECTRON_PATH=' + require('electron'))"], {
    cwd: root,
    encoding: 'utf8',
    timeout: 5 * 60_000,
  })
  const path = /^ELECTRON_PATH=(.+)$/m.exec(probe.stdout ?? '')?.[1]
  if (probe.status === 0 && path && existsSync(path)) return { path }
  const reason = (probe.stderr ?? '').split('\n').find((l) => /error|failed/i.test(l))?.trim() ?? 'the download did not complete'
  return { reason: reason.replace(/^Error:\s*/, '').slice(0, 160) }
}

function run(command, args) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit' })
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
}

const build = spawnSync(npx, ['electron-vite', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
if (build.status !== 0) {
  console.error('The kiosk did not build; see the errors above.')
  process.exit(build.status ?? 1)
}

const electron = electronBinary()
if (electron.path) {
  run(electron.path, [root])
} else {
  console.log(`Electron is not available on this machine (its binary could not be obtained: ${electron.reason}); starting the web host instead.`)
  run(process.execPath, ['--import', 'tsx', join(root, 'electron/host/cli.ts')])
}
