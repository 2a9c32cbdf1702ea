import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config'
import { DebugLogger } from 'builder-util'
import type { Configuration } from 'electron-builder'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectRoot } from '../support/process'

// `npm run dist` cannot run here (no Electron download), so the packaging config is checked the
// way electron-builder itself loads and validates it, plus what a hardened kiosk needs of it (fuses, targets).
let config: Configuration

beforeAll(async () => {
  config = await getConfig(projectRoot, null, null)
  await validateConfiguration(config, new DebugLogger(false))
}, 30_000)

const targets = (platform: { target?: unknown } | null | undefined) => (platform?.target as string[] | undefined) ?? []

describe('electron-builder.yml', () => {
  it('passes electron-builder’s own schema validation (and the check catches mistakes)', async () => {
    expect(config.appId).toBe('org.identitykiosk.kiosk')
    await expect(validateConfiguration({ ...config, linux: { ...config.linux, notAnOption: true } as never }, new DebugLogger(false))).rejects.toThrow(/configuration/)
  })

  it('builds AppImage + deb, NSIS, and a dmg with the camera usage description', () => {
    expect(targets(config.linux)).toEqual(['AppImage', 'deb'])
    expect(targets(config.win)).toEqual(['nsis'])
    expect(targets(config.mac)).toEqual(['dmg'])
    expect(config.mac?.extendInfo).toMatchObject({ NSCameraUsageDescription: expect.stringMatching(/camera/) })
    expect(config.mac?.hardenedRuntime).toBe(true)
    const entitlements = readFileSync(join(projectRoot, config.mac!.entitlements!), 'utf8')
    expect(entitlements).toContain('<key>com.apple.security.device.camera</key>')
    expect(entitlements).toContain('<key>com.apple.security.cs.allow-jit</key>')
  })

  it('flips the Electron fuses a hardened kiosk needs', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    })
    // Only-load-from-asar needs an asar.
    expect(config.asar).toBe(true)
  })

  it('packages the build output only, and rebuilds native modules at packaging time', () => {
    // (validation normalizes the list into file sets)
    const files = (config.files as Array<string | { filter?: string[] }>).flatMap((set) => (typeof set === 'string' ? [set] : (set.filter ?? [])))
    expect(files).toEqual(['package.json', 'out/**/*', '!out/icons/**', '!**/*.map'])
    expect(config.npmRebuild).toBe(true)
    expect(config.beforeBuild).toBe('./resources/before-build.mjs')
    const pkg = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8'))
    expect(pkg.main).toBe('out/main/index.js')
    expect(pkg.scripts.dist).toBe('node resources/dist.mjs')
    // Nothing that runs during `npm ci` touches Electron: no install-time rebuild.
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts[hook], hook).toBeUndefined()
  })
})

describe('packaging helpers', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kiosk-dist-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('renders the icons electron-builder.yml points at from resources/icon.svg', async () => {
    execFileSync(process.execPath, [join(projectRoot, 'resources/make-icons.mjs'), join(dir, 'icons')], { stdio: 'pipe' })
    for (const size of [16, 32, 48, 64, 128, 256, 512, 1024]) {
      const meta = await sharp(join(dir, 'icons', `${size}x${size}.png`)).metadata()
      expect([meta.format, meta.width, meta.height]).toEqual(['png', size, size])
    }
    expect(config.linux?.icon).toBe('out/icons')
    expect(config.win?.icon).toBe('out/icons/256x256.png')
    expect(config.mac?.icon).toBe('out/icons/1024x1024.png')
  }, 30_000)

  it('before-build drops a nodedir holding this Node’s headers (it would give Node-ABI "Electron" builds), and keeps any other', async () => {
    const { default: beforeBuild, headersVersion } = await import('../../resources/before-build.mjs')
    const fake = (version: string) => {
      const [major, minor, patch] = version.split('.')
      const root = join(dir, `headers-${version}`)
      mkdirSync(join(root, 'include', 'node'), { recursive: true })
      writeFileSync(join(root, 'include', 'node', 'node_version.h'), `#define NODE_MAJOR_VERSION ${major}\n#define NODE_MINOR_VERSION ${minor}\n#define NODE_PATCH_VERSION ${patch}\n`)
      return root
    }
    const saved = process.env.npm_config_nodedir
    try {
      const own = fake(process.versions.node)
      expect(headersVersion(own)).toBe(process.versions.node)
      process.env.npm_config_nodedir = own
      expect(await beforeBuild()).toBe(true)
      expect(process.env.npm_config_nodedir).toBeUndefined()
      const electronHeaders = fake('22.20.0')
      process.env.npm_config_nodedir = electronHeaders
      await beforeBuild()
      expect(process.env.npm_config_nodedir).toBe(electronHeaders)
    } finally {
      if (saved === undefined) delete process.env.npm_config_nodedir
      else process.env.npm_config_nodedir = saved
    }
  })
})
