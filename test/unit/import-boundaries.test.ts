import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'
import { projectRoot } from '../support/process'

// Proves the lint rules that keep each runtime's code in its lane actually fire.
const eslint = new ESLint({ cwd: projectRoot })

async function restricted(file: string, code: string): Promise<boolean> {
  const [result] = await eslint.lintText(code, { filePath: `${projectRoot}${file}` })
  return (result?.messages ?? []).some((m) => m.ruleId === 'no-restricted-imports')
}

describe('import boundaries', () => {
  it.each(['electron/services/x.ts', 'electron/engine/x.ts', 'electron/records/x.ts', 'electron/records/frontdesk/x.ts', 'electron/host/x.ts', 'electron/site/x.ts', 'electron/shared/x.ts', 'renderer/src/x.ts'])(
    "refuses 'electron' in %s",
    async (file) => {
      expect(await restricted(file, "import { app } from 'electron'\nexport const a = app\n")).toBe(true)
    },
  )

  it.each(['electron/main/x.ts', 'electron/preload/x.ts'])("allows 'electron' in %s", async (file) => {
    expect(await restricted(file, "import { app } from 'electron'\nexport const a = app\n")).toBe(false)
  })

  it.each(['node:fs', 'fs', 'child_process', 'node:path'])('refuses the Node built-in %s in the renderer', async (name) => {
    expect(await restricted('renderer/src/x.ts', `import m from '${name}'\nexport const a = m\n`)).toBe(true)
  })

  it('lets the renderer import the shared contract but nothing else of electron/', async () => {
    expect(await restricted('renderer/src/x.ts', "import { contract } from '../../electron/shared/contract'\nexport const a = contract\n")).toBe(false)
    expect(await restricted('renderer/src/x.ts', "import { x } from '../../electron/services/dispatch'\nexport const a = x\n")).toBe(true)
  })

  it('lets the renderer import the shared contract as @shared/…, and nothing else through it', async () => {
    expect(await restricted('renderer/src/x.ts', "import { contract } from '@shared/contract'\nexport const a = contract\n")).toBe(false)
    expect(await restricted('renderer/src/x.ts', "import { x } from '@shared/../services/dispatch'\nexport const a = x\n")).toBe(true)
  })

  it.each(['electron/services/x.ts', 'electron/engine/x.ts', 'electron/records/sql/x.ts', 'electron/host/x.ts', 'electron/site/x.ts', 'electron/shared/x.ts', 'electron/main/x.ts', 'electron/preload/x.ts', 'test/unit/x.ts', 'scripts/x.ts'])(
    'refuses the @shared alias in %s (Node code does not resolve it)',
    async (file) => {
      expect(await restricted(file, "import { contract } from '@shared/contract'\nexport const a = contract\n")).toBe(true)
    },
  )

  it('keeps services and engine apart, and shared self-contained', async () => {
    expect(await restricted('electron/services/secrets/x.ts', "import { x } from '../../engine/server'\nexport const a = x\n")).toBe(true)
    expect(await restricted('electron/engine/x.ts', "import { x } from '../services/dispatch'\nexport const a = x\n")).toBe(true)
    expect(await restricted('electron/shared/x.ts', "import { x } from '../services/dispatch'\nexport const a = x\n")).toBe(true)
    expect(await restricted('electron/services/x.ts', "import { x } from './engine-supervisor'\nexport const a = x\n")).toBe(false)
  })

  it('keeps the site to processes: no engine or services imports', async () => {
    expect(await restricted('electron/site/x.ts', "import { x } from '../engine/server'\nexport const a = x\n")).toBe(true)
    expect(await restricted('electron/site/x.ts', "import { x } from '../services/dispatch'\nexport const a = x\n")).toBe(true)
    expect(await restricted('electron/site/x.ts', "import { x } from './engine-supervisor'\nexport const a = x\n")).toBe(false)
  })

  it.each([
    ['engine', "import { x } from '../../engine/server'"],
    ['services', "import { x } from '../../services/dispatch'"],
    ['site', "import { x } from '../../site/cli'"],
    ['host', "import { x } from '../../host/cli'"],
    ['main', "import { x } from '../../main/index'"],
    ['preload', "import { x } from '../../preload/index'"],
  ])('keeps the records layer below everything: no %s imports from electron/records', async (_layer, line) => {
    expect(await restricted('electron/records/frontdesk/x.ts', `${line}\nexport const a = x\n`)).toBe(true)
  })

  it('lets the records layer import electron/shared and itself', async () => {
    expect(await restricted('electron/records/frontdesk/x.ts', "import { x } from '../../shared/errors'\nexport const a = x\n")).toBe(false)
    expect(await restricted('electron/records/frontdesk/x.ts', "import { x } from '../sql/types'\nexport const a = x\n")).toBe(false)
    expect(await restricted('electron/records/x.ts', "import { x } from './frontdesk/front-desk'\nexport const a = x\n")).toBe(false)
  })

  it('lets the engine, the services and the site import the records layer, and keeps it from the renderer and the preload', async () => {
    expect(await restricted('electron/engine/store/x.ts', "import { x } from '../../records/sql/types'\nexport const a = x\n")).toBe(false)
    expect(await restricted('electron/services/x.ts', "import { x } from '../records/frontdesk/local'\nexport const a = x\n")).toBe(false)
    expect(await restricted('electron/site/x.ts', "import { x } from '../records/sql/postgres'\nexport const a = x\n")).toBe(false)
    expect(await restricted('renderer/src/x.ts', "import { x } from '../../electron/records/sql/types'\nexport const a = x\n")).toBe(true)
    expect(await restricted('electron/preload/x.ts', "import { x } from '../records/sql/types'\nexport const a = x\n")).toBe(true)
  })
})
