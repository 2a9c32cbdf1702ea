import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

/**
 * A gnome-keyring of one test file's own, on its own D-Bus session bus, so a test can lock and
 * unlock it without disturbing other keychain test files running in parallel against the keyring of
 * run-with-secret-service.sh. Call use() before the first keytar call of the process: GLib connects
 * to the session bus named by DBUS_SESSION_BUS_ADDRESS once, on first use.
 *
 * Tools: dbus-daemon and dbus-send (Debian dbus), gnome-keyring-daemon (gnome-keyring), both
 * installed by scripts/setup.sh. No display: a prompt the keyring asks for fails at once instead of
 * opening a window.
 */
export interface PrivateKeyring {
  readonly password: string
  /** Points this process's D-Bus session (and so keytar) at this keyring. */
  use(): void
  /** The login collection's Locked property, straight from the Secret Service. */
  isLocked(): boolean
  /** Locks the login collection (org.freedesktop.Secret.Service.Lock), as a screen lock or timeout would. */
  lock(): void
  /** Unlocks it with a password through gnome-keyring's control socket (what pam_gnome_keyring does); resolves with the daemon's answer. */
  unlock(password?: string): Promise<'ok' | 'denied' | 'failed' | 'no-daemon'>
  stop(): Promise<void>
}

const LOGIN = '/org/freedesktop/secrets/collection/login'

export async function startPrivateKeyring(password = 'private-test-keyring'): Promise<PrivateKeyring> {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-keyring-'))
  mkdirSync(join(dir, 'run'), { mode: 0o700 })
  const address = `unix:path=${join(dir, 'bus')}`
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: dir,
    XDG_DATA_HOME: join(dir, '.local', 'share'),
    XDG_RUNTIME_DIR: join(dir, 'run'),
    DBUS_SESSION_BUS_ADDRESS: address,
    DISPLAY: '',
  }
  delete env.WAYLAND_DISPLAY
  const children: ChildProcess[] = []
  const stop = async () => {
    await Promise.all(children.reverse().map(terminate))
    rmSync(dir, { recursive: true, force: true })
  }

  try {
    const bus = spawn('dbus-daemon', ['--session', '--nofork', `--address=${address}`, '--print-address=1'], { env, stdio: ['ignore', 'pipe', 'ignore'] })
    children.push(bus)
    await firstLine(bus, 10_000)

    // --unlock reads the password from stdin; a non-empty one creates the login keyring unlocked.
    const daemon = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], { env, stdio: ['pipe', 'ignore', 'ignore'] })
    children.push(daemon)
    daemon.stdin!.end(password)

    const dbusSend = (dest: string, path: string, method: string, ...args: string[]) => {
      const run = spawnSync('dbus-send', ['--session', '--print-reply', `--dest=${dest}`, path, method, ...args], { env, encoding: 'utf8', timeout: 10_000 })
      if (run.status !== 0) throw new Error(`dbus-send ${method} failed: ${run.stderr.trim()}`)
      return run.stdout
    }
    const isLocked = () => {
      const reply = dbusSend('org.freedesktop.secrets', LOGIN, 'org.freedesktop.DBus.Properties.Get', 'string:org.freedesktop.Secret.Collection', 'string:Locked')
      if (/boolean true/.test(reply)) return true
      if (/boolean false/.test(reply)) return false
      throw new Error(`unexpected reply to Locked: ${reply}`)
    }

    // Wait for the daemon to own its name before calling it: a call to an unowned name would make
    // the bus auto-start another gnome-keyring, one without the password and its login keyring.
    const owned = () => /boolean true/.test(dbusSend('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.NameHasOwner', 'string:org.freedesktop.secrets'))
    const deadline = Date.now() + 10_000
    while (!owned()) {
      if (daemon.exitCode !== null || Date.now() > deadline) throw new Error('the private gnome-keyring did not start')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    if (isLocked()) throw new Error('the private keyring came up locked')

    return {
      password,
      use() {
        process.env.DBUS_SESSION_BUS_ADDRESS = address
        process.env.DISPLAY = ''
        delete process.env.WAYLAND_DISPLAY
      },
      isLocked,
      lock() {
        dbusSend('org.freedesktop.secrets', '/org/freedesktop/secrets', 'org.freedesktop.Secret.Service.Lock', `array:objpath:${LOGIN}`)
      },
      unlock: (given = password) => controlUnlock(join(dir, 'run', 'keyring', 'control'), given),
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}

/**
 * gnome-keyring's control protocol (daemon/control/gkd-control-codes.h): a zero credentials byte,
 * then [u32 length][u32 op = 1 (unlock)][u32 n][n bytes of password], all big-endian; the answer is
 * [u32 length = 8][u32 result: 0 ok, 1 denied, 2 failed, 3 no daemon].
 */
function controlUnlock(socketPath: string, password: string): Promise<'ok' | 'denied' | 'failed' | 'no-daemon'> {
  const results = ['ok', 'denied', 'failed', 'no-daemon'] as const
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath)
    const chunks: Buffer[] = []
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer from the keyring control socket')))
    socket.on('connect', () => {
      const secret = Buffer.from(password, 'utf8')
      const packet = Buffer.alloc(1 + 12 + secret.length)
      packet.writeUInt32BE(12 + secret.length, 1)
      packet.writeUInt32BE(1, 5)
      packet.writeUInt32BE(secret.length, 9)
      secret.copy(packet, 13)
      socket.write(packet)
    })
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const reply = Buffer.concat(chunks)
      const result = reply.length >= 8 && reply.readUInt32BE(0) === 8 ? results[reply.readUInt32BE(4)] : undefined
      if (result) resolve(result)
      else reject(new Error(`unexpected answer from the keyring control socket (${reply.length} bytes)`))
    })
  })
}

function firstLine(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('dbus-daemon did not print its address')), timeoutMs)
    child.once('exit', (code) => reject(new Error(`dbus-daemon exited with ${code}`)))
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer)
      resolve(line)
    })
  })
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000)
  await exited
  clearTimeout(timer)
}
