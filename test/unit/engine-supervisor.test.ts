import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { EngineSupervisor } from '../../electron/services/engine-supervisor'

// Real child processes standing in for the engine: one that gets ready, one that dies at once.
const readyScript = "console.log('engine ready http://127.0.0.1:4321'); setInterval(() => {}, 1000)"
const crashScript = "console.error('boom'); process.exit(3)"
const node = (script: string) => () => spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] })

describe('EngineSupervisor', () => {
  it('starts the engine, reports it running with its URL, and stops it', async () => {
    const supervisor = new EngineSupervisor({ launch: node(readyScript) })
    expect(supervisor.getStatus().state).toBe('stopped')
    const url = await supervisor.start()
    expect(url).toBe('http://127.0.0.1:4321')
    const status = supervisor.getStatus()
    expect(status).toMatchObject({ state: 'running', url, restarts: 0, lastError: null })
    const pid = status.pid!
    expect(() => process.kill(pid, 0)).not.toThrow()
    await supervisor.stop()
    expect(supervisor.getStatus()).toMatchObject({ state: 'stopped', url: null, pid: null })
    expect(() => process.kill(pid, 0)).toThrow()
  })

  it('restarts an engine that dies, with backoff, then reports failure', async () => {
    const supervisor = new EngineSupervisor({ launch: node(crashScript), baseBackoffMs: 10, maxRestarts: 3 })
    await expect(supervisor.start()).rejects.toThrow(/keeps failing: engine exited with code 3/)
    expect(supervisor.getStatus()).toMatchObject({ state: 'failed', restarts: 3, lastError: 'engine exited with code 3' })
  })

  it('restarts an engine killed while running and becomes ready again', async () => {
    const supervisor = new EngineSupervisor({ launch: node(readyScript), baseBackoffMs: 10 })
    await supervisor.start()
    const firstPid = supervisor.getStatus().pid!
    process.kill(firstPid, 'SIGKILL')
    const runningAgain = () => {
      const { state, pid } = supervisor.getStatus()
      return state === 'running' && pid !== firstPid
    }
    await expect.poll(runningAgain, { timeout: 10_000 }).toBe(true)
    expect(supervisor.getStatus()).toMatchObject({ restarts: 1, lastError: null, url: 'http://127.0.0.1:4321' })
    await supervisor.stop()
  })

  it('kills an engine that never gets ready', async () => {
    const silent = node('setInterval(() => {}, 1000)')
    const supervisor = new EngineSupervisor({ launch: silent, readyTimeoutMs: 200, baseBackoffMs: 10, maxRestarts: 1 })
    await expect(supervisor.start()).rejects.toThrow(/not ready within 200 ms/)
  })
})
