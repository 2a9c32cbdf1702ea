import { homedir } from 'node:os'
import { join } from 'node:path'

/**
 * The kiosk's per-user data folder, the same one Electron's app.getPath('userData') gives for this
 * app, so the web host and the desktop app share settings, the outbox and the embedded engine's data.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.KIOSK_DATA_DIR) return env.KIOSK_DATA_DIR
  const home = homedir()
  const appData =
    platform === 'win32'
      ? (env.APPDATA ?? join(home, 'AppData', 'Roaming'))
      : platform === 'darwin'
        ? join(home, 'Library', 'Application Support')
        : (env.XDG_CONFIG_HOME ?? join(home, '.config'))
  return join(appData, 'identity-kiosk')
}
