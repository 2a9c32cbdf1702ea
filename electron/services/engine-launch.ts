import { spawn } from 'node:child_process'
import { join } from 'node:path'
import type { EngineProcess } from './engine-supervisor'

/**
 * Launches the embedded engine from source with tsx, as a plain Node child process on a random
 * loopback port (the web host's way; Electron uses a utilityProcess on the built engine instead).
 */
export function launchEngineFromSource(projectRoot: string, dataDir: string): () => EngineProcess {
  return () =>
    spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'electron/engine/cli.ts'), '--port', '0', '--data', dataDir], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    })
}
