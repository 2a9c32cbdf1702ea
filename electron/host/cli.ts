import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { defaultDataDir } from '../services/data-dir'
import { launchEngineFromSource } from '../services/engine-launch'
import { createKioskServices } from '../services/kiosk-services'
import { openInBrowser } from './open-browser'
import { createWebHost } from './server'

/** `npm run start:web`: the kiosk in a browser, on the embedded engine, on loopback only. */
async function main(): Promise<void> {
  const root = fileURLToPath(new URL('../..', import.meta.url))
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      data: { type: 'string', default: defaultDataDir() },
      renderer: { type: 'string', default: join(root, 'out/renderer') },
      // npm start where Electron is unavailable: the kiosk in the default browser, where there is one.
      open: { type: 'boolean', default: false },
    },
  })
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version

  const services = createKioskServices({ shell: 'web', version, dataDir: values.data, launchEngine: launchEngineFromSource(root) })
  const host = createWebHost({
    dispatch: services.dispatch,
    subscribe: (key, listener) => services.onEvent(key, listener),
    endSession: (key, reason) => services.endSession(key, reason),
    rendererDir: values.renderer,
  })
  const { launchUrl } = await host.listen(Number(values.port))
  console.log(`kiosk ${launchUrl}`)
  const pointAtUrl = "Open that URL in a browser (it carries this launch's access token). Ctrl+C stops the kiosk."
  const opener = values.open ? openInBrowser(launchUrl, (why) => console.log(`The browser did not open (${why}). ${pointAtUrl}`)) : null
  console.log(opener?.command ? `Opening the kiosk in the default browser (${opener.command}). Ctrl+C stops the kiosk.` : pointAtUrl)

  // Ctrl+C while the engine is still starting stops it too, instead of killing the host under it.
  let stopping = false
  const shutdown = () => {
    if (stopping) return
    stopping = true
    Promise.all([services.stop(), host.close()]).then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.once('SIGINT', shutdown)
  process.once('SIGTERM', shutdown)
  await services.start()
}

void main()
