import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contentTypeFor, lookupAsset, serveRendererRequest } from '../../electron/main/app-protocol'
import { CONTENT_SECURITY_POLICY } from '../../electron/shared/web-security'

// The app:// handler the shell gives protocol.handle, driven with real Request objects.
let base: string
let root: string

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'kiosk-protocol-'))
  root = join(base, 'renderer')
  mkdirSync(join(root, 'assets'), { recursive: true })
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>kiosk</title>')
  writeFileSync(join(root, 'assets', 'index-abc.js'), 'console.log(1)')
  writeFileSync(join(root, 'assets', 'face.wasm'), Buffer.from([0, 97, 115, 109]))
  writeFileSync(join(root, '.secret'), 'dotfile')
  writeFileSync(join(base, 'outside.txt'), 'secret outside the renderer')
  writeFileSync(join(base, 'renderer-evil.txt'), 'a sibling whose name starts like the root')
  symlinkSync(join(base, 'outside.txt'), join(root, 'assets', 'link-out.txt'))
})

afterAll(() => rmSync(base, { recursive: true, force: true }))

const get = (url: string, method = 'GET') => serveRendererRequest(new Request(url, { method }), root, CONTENT_SECURITY_POLICY)

describe('app:// protocol', () => {
  it('serves the renderer with the CSP and nosniff as response headers', async () => {
    for (const url of ['app://kiosk/', 'app://kiosk/index.html', 'app://kiosk/index.html?x=1#/enroll']) {
      const response = await get(url)
      expect(response.status, url).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY)
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(await response.text()).toContain('<title>kiosk</title>')
    }
    const script = await get('app://kiosk/assets/index-abc.js')
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await script.text()).toBe('console.log(1)')
    const wasm = await get('app://kiosk/assets/face.wasm')
    expect(wasm.headers.get('content-type')).toBe('application/wasm')
    const head = await get('app://kiosk/index.html', 'HEAD')
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
  })

  it('refuses to leave the renderer folder, however the path is spelled', async () => {
    for (const url of [
      'app://kiosk/../outside.txt',
      'app://kiosk/%2e%2e/outside.txt',
      'app://kiosk/..%2foutside.txt',
      'app://kiosk/..%2Foutside.txt',
      'app://kiosk/assets/..%2f..%2foutside.txt',
      'app://kiosk/..%5coutside.txt',
      'app://kiosk/%2e%2e%5coutside.txt',
      'app://kiosk/../renderer-evil.txt',
      'app://kiosk/%2fetc%2fpasswd',
      'app://kiosk//etc/passwd',
      'app://kiosk/C:%5cWindows%5cwin.ini',
      'app://kiosk/index.html%00.js',
      'app://kiosk/assets/link-out.txt',
      'app://kiosk/.secret',
      'app://kiosk/%E0%A4%A',
    ]) {
      const response = await get(url)
      expect([400, 403, 404], url).toContain(response.status)
      const body = await response.text()
      expect(body, url).not.toContain('secret')
      expect(body, url).not.toContain('sibling')
    }
  })

  it('answers only GET and HEAD for its own host', async () => {
    expect((await get('app://kiosk/index.html', 'POST')).status).toBe(405)
    expect((await get('app://kiosk/index.html', 'PUT')).status).toBe(405)
    expect((await get('app://elsewhere/index.html')).status).toBe(404)
    expect((await get('app://staff-pin/index.html')).status).toBe(404)
    expect((await get('app://kiosk/missing.js')).status).toBe(404)
    expect((await get('app://kiosk/assets')).status).toBe(404)
  })

  it('maps URLs to paths without touching the disk', () => {
    expect(lookupAsset('app://kiosk/')).toEqual({ ok: true, relativePath: 'index.html' })
    expect(lookupAsset('app://kiosk/assets/x.js')).toEqual({ ok: true, relativePath: 'assets/x.js' })
    expect(lookupAsset('app://kiosk/a%20b.png')).toEqual({ ok: true, relativePath: 'a b.png' })
    expect(lookupAsset('https://kiosk/x.js')).toEqual({ ok: false, status: 404 })
    expect(contentTypeFor('x.css')).toBe('text/css; charset=utf-8')
    expect(contentTypeFor('x.unknown')).toBe('application/octet-stream')
  })
})
