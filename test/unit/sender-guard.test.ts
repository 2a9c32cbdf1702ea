import { describe, expect, it } from 'vitest'
import { isTrustedSenderUrl } from '../../electron/main/sender-guard'

describe('isTrustedSenderUrl', () => {
  const packaged = { appUrl: 'file:///opt/kiosk/out/renderer/index.html' }
  const dev = { devOrigin: 'http://localhost:5173', appUrl: packaged.appUrl }

  it("trusts the app's own renderer page", () => {
    expect(isTrustedSenderUrl('file:///opt/kiosk/out/renderer/index.html', packaged)).toBe(true)
    expect(isTrustedSenderUrl('file:///opt/kiosk/out/renderer/index.html#/enroll', packaged)).toBe(true)
    expect(isTrustedSenderUrl('http://localhost:5173/', dev)).toBe(true)
  })

  it('refuses every other page, look-alikes included', () => {
    for (const url of [
      undefined,
      '',
      'not a url',
      'file:///tmp/evil.html',
      'file:///opt/kiosk/out/renderer/index.html.evil',
      'http://localhost:5173.evil.example/',
      'http://localhost:5174/',
      'https://example.com/',
    ]) {
      expect(isTrustedSenderUrl(url, dev)).toBe(false)
    }
    expect(isTrustedSenderUrl('http://localhost:5173/', packaged)).toBe(false)
  })
})
