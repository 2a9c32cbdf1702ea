import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'

export const projectRoot = new URL('../..', import.meta.url).pathname

export interface Started {
  child: ChildProcess
  match: RegExpExecArray
  output: string[]
  stop: () => Promise<number | null>
}

/** Runs a TypeScript entry point of this project with tsx, as npm scripts do. */
export function tsxArgs(entry: string, args: string[]): [string, string[]] {
  return [process.execPath, ['--import', 'tsx', entry, ...args]]
}

/** Spawns a process and resolves once a stdout line matches `pattern`; rejects if it exits first. */
export function startUntil(command: string, args: string[], pattern: RegExp, timeoutMs = 30_000, env?: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawn(command, args, { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'], env: env ?? process.env })
  const output: string[] = []
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    return exited
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop()
      reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${output.join('\n')}`))
    }, timeoutMs)
    createInterface({ input: child.stderr! }).on('line', (line) => output.push(line))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line)
      const match = pattern.exec(line)
      if (match) {
        clearTimeout(timer)
        resolve({ child, match, output, stop })
      }
    })
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`exited with code ${code} before printing ${pattern}:\n${output.join('\n')}`))
    })
  })
}
