import { spawn, spawnSync } from 'node:child_process'

export type BrowserOpener = { command: string; args: string[] } | { command: null; reason: string }

/**
 * How this machine opens a URL in its default browser, or why it is not tried: KIOSK_NO_BROWSER=1
 * or CI asks not to; a Linux session without a display would get a text browser in the terminal
 * that runs the kiosk, so it is not tried there either.
 */
export function browserOpener(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): BrowserOpener {
  if (env.KIOSK_NO_BROWSER && env.KIOSK_NO_BROWSER !== '0') return { command: null, reason: 'KIOSK_NO_BROWSER is set' }
  if (env.CI && env.CI !== 'false') return { command: null, reason: 'running in CI' }
  if (platform === 'win32') return { command: 'cmd', args: ['/d', '/s', '/c', 'start', '""'] }
  if (platform === 'darwin') return onPath('open', env) ? { command: 'open', args: [] } : { command: null, reason: 'no "open" command' }
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return { command: null, reason: 'no graphical session' }
  return onPath('xdg-open', env) ? { command: 'xdg-open', args: [] } : { command: null, reason: 'no xdg-open' }
}

function onPath(tool: string, env: NodeJS.ProcessEnv): boolean {
  return spawnSync('sh', ['-c', `command -v ${tool}`], { env, stdio: 'ignore' }).status === 0
}

/**
 * Opens `url` in the default browser, detached (xdg-open may wait for the browser to close).
 * Returns the command used, or null with the reason it was not tried; `failed` hears of an opener
 * that could not start or gave up, so the caller can point at the printed URL instead.
 */
export function openInBrowser(url: string, failed: (why: string) => void, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): BrowserOpener {
  const opener = browserOpener(env, platform)
  if (opener.command === null) return opener
  const child = spawn(opener.command, [...opener.args, url], { env, detached: true, stdio: 'ignore', windowsVerbatimArguments: platform === 'win32' })
  child.once('error', (error) => failed(error.message))
  child.once('exit', (code) => {
    if (code) failed(`${opener.command} exited with code ${code}`)
  })
  child.unref()
  return opener
}
