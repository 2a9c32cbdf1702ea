import { describe, expect, it } from 'vitest'
import { basicCredentials } from '../../electron/services/clients/person-server'

const decode = (header: string) => Buffer.from(header.replace(/^Basic /, ''), 'base64').toString('utf8')

describe('Basic credentials of the token call', () => {
  const credentials = { clientId: 'kiosk app', clientSecret: 'p%ss:w+rd&=' }

  it('form-encodes id and secret first by default (RFC 6749 §2.3.1)', () => {
    expect(decode(basicCredentials(credentials, 'form-urlencoded'))).toBe('kiosk+app:p%25ss%3Aw%2Brd%26%3D')
  })

  it("sends them as they are in 'plain' mode, as the vendor's own samples do", () => {
    expect(decode(basicCredentials(credentials, 'plain'))).toBe('kiosk app:p%ss:w+rd&=')
  })

  it('is the same either way for ids and secrets without reserved characters', () => {
    const simple = { clientId: 'kiosk', clientSecret: 'Abc123-_.~' }
    expect(basicCredentials(simple, 'plain')).toBe(basicCredentials(simple, 'form-urlencoded'))
  })
})
