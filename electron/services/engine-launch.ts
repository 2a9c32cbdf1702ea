import { spawn } from 'node:child_process'
import { join } from 'node:path'
import type { EngineProcess } from './engine-supervisor'

/** How to start the embedded engine: its command-line flags and extra environment (secrets go there). */
export interface EngineLaunchSpec {
  argv: string[]
  env: Record<string, string>
}

export type LaunchEngine = (spec: EngineLaunchSpec) => EngineProcess

/**
 * Launches the embedded engine from source with tsx, as a plain Node child process (the web
 * host's way; Electron forks the built engine as a utilityProcess instead).
 */
export function launchEngineFromSource(projectRoot: string): LaunchEngine {
  return ({ argv, env }) =>
    spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'electron/engine/cli.ts'), ...argv], {
      cwd: projectRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
}
