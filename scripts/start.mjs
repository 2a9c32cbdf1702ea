#!/usr/bin/env node
// npm start: the Electron app on the embedded engine. Where no Electron binary can be had (it is
// fetched on first use and some machines cannot reach it), say so in one line and run the web host.
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const has = (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0

function run(command, args, env = process.env) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env })
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
}

/**
 * The kiosk keeps its secrets in the OS keychain. A Linux session without a Secret Service (a
 * headless machine, SSH) gets a private gnome-keyring kept in the kiosk's data folder, unlocked by a
 * password in a file beside it: good for development machines, not a substitute for a desktop keyring.
 */
function needsPrivateKeyring() {
  return process.platform === 'linux' && !process.env.DBUS_SESSION_BUS_ADDRESS && has('dbus-run-session') && has('gnome-keyring-daemon')
}

function relaunchWithPrivateKeyring() {
  const dataDir = process.env.KIOSK_DATA_DIR ?? join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'identity-kiosk')
  const keyringHome = join(dataDir, 'private-keyring')
  mkdirSync(keyringHome, { recursive: true, mode: 0o700 })
  const passwordFile = join(keyringHome, 'password')
  if (!existsSync(passwordFile)) writeFileSync(passwordFile, randomBytes(24).toString('base64url'), { mode: 0o600 })
  console.log(`No Secret Service in this session: using the kiosk's private keyring in ${keyringHome}.`)
  const script = 'gnome-keyring-daemon --unlock --components=secrets < "$KIOSK_KEYRING_PASSWORD_FILE" >/dev/null && exec "$0" "$1"'
  // The daemon through a filter that drops only its harmless fd-limit warning (see the script).
  const daemon = join(root, 'scripts/quiet-dbus-daemon.sh')
  run('dbus-run-session', [`--dbus-daemon=${daemon}`, '--', 'sh', '-c', script, process.execPath, fileURLToPath(import.meta.url)], {
    ...process.env,
    KIOSK_KEYRING_PASSWORD_FILE: passwordFile,
    XDG_DATA_HOME: keyringHome,
    XDG_RUNTIME_DIR: mkdtempSync(join(tmpdir(), 'kiosk-keyring-')),
  })
}

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

function launch() {
  // electron-vite's own bin rather than npx: one process fewer, and no npm config warnings from this machine's npmrc.
  const build = spawnSync(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
  if (build.status !== 0) {
    console.error('The kiosk did not build; see the errors above.')
    process.exit(build.status ?? 1)
  }
  const electron = electronBinary()
  if (electron.path) {
    // better-sqlite3 and keytar must be built for Electron's ABI (undo with npm run rebuild:node).
    if (spawnSync(process.execPath, [join(root, 'resources/native-modules.mjs'), 'electron'], { cwd: root, stdio: 'inherit' }).status !== 0) process.exit(1)
    run(electron.path, [root])
  } else {
    console.log(`Electron is not available on this machine (its binary could not be obtained: ${electron.reason}); starting the web host instead.`)
    // --open: the kiosk in the default browser where there is one (the host prints the URL either way).
    run(process.execPath, ['--import', 'tsx', join(root, 'electron/host/cli.ts'), '--open'])
  }
}

if (needsPrivateKeyring()) relaunchWithPrivateKeyring()
else launch()
