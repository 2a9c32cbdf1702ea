import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { FormData, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFacePlugins } from '../../electron/engine/face'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { projectRoot } from '../support/process'

// Bad input never crashes the engine and never gets a 500: each row must get a clear 4xx.
describe('embedded engine bad input', () => {
  let t: TestEngine
  let templateType: string
  let face: Buffer
  beforeAll(async () => {
    t = await startTestEngine(await loadFacePlugins({ threads: 1, log: () => {} }))
    templateType = (await t.call('GET', '/bioengine/template-types')).body.templateTypes[0].templateType
    face = await sharp(readFileSync(join(projectRoot, 'test/fixtures/generated/face.png'))).jpeg().toBuffer()
  })
  afterAll(() => t.close())

  const b64 = (bytes: Buffer) => bytes.toString('base64')
  const hugePng = async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } }).png().toBuffer()
    png.writeUInt32BE(60_000, 16) // declares 60000×60000 in IHDR; the CRC no longer matches either
    png.writeUInt32BE(60_000, 20)
    return png
  }

  it('answers every malformed request with a 4xx and a message, never a 500', async () => {
    const person = (await t.call('POST', `/v2/gmiserver/tenant/${TEST_TENANT}/person`, { userId: 'bad-input@example.com' })).body
    const enroll = `/bioengine/persons/${person.uuid}/biometrics`
    const rows: Array<[string, string, string, unknown, number]> = [
      ['malformed JSON', 'POST', enroll, '{"templateType": ', 400],
      ['JSON array body', 'POST', enroll, '[1,2]', 400],
      ['wrong types', 'POST', enroll, { templateType: 5, templateContext: ['x'] }, 400],
      ['no samples nor template', 'POST', enroll, { templateType, templateContext: 'c1' }, 400],
      ['samples and template', 'POST', enroll, { templateType, templateContext: 'c1', samples: [b64(face)], template: 'QktU' }, 400],
      ['unknown template type', 'POST', enroll, { templateType: 'Face:Nope', templateContext: 'c1', samples: [b64(face)] }, 400],
      ['invalid base64', 'POST', enroll, { templateType, templateContext: 'c1', samples: ['***not base64***'] }, 400],
      ['empty sample', 'POST', enroll, { templateType, templateContext: 'c1', samples: [''] }, 400],
      ['text, not an image', 'POST', enroll, { templateType, templateContext: 'c1', samples: [b64(Buffer.from('hello world!'))] }, 400],
      ['truncated JPEG', 'POST', enroll, { templateType, templateContext: 'c1', samples: [b64(face.subarray(0, Math.floor(face.length / 3)))] }, 400],
      ['PNG declaring huge dimensions', 'POST', enroll, { templateType, templateContext: 'c1', samples: [b64(await hugePng())] }, 400],
      ['garbage template', 'POST', enroll, { templateType, templateContext: 'c1', template: b64(Buffer.from('BKT garbage garbage')) }, 400],
      ['eleven samples', 'POST', enroll, { templateType, templateContext: 'c1', samples: Array(11).fill(b64(face)) }, 400],
      ['path traversal in personid', 'POST', '/bioengine/persons/..%2F..%2Fetc/biometrics', { templateType, templateContext: 'c1', samples: [b64(face)] }, 400],
      ['path traversal in context', 'DELETE', `/bioengine/persons/${person.uuid}/biometrics/${templateType}/..%2F..%2Fx`, undefined, 400],
      ['bad template type in path', 'GET', `/bioengine/persons/${person.uuid}/biometrics/no-colon`, undefined, 400],
      ['identify without inputs', 'POST', '/bioengine/identify', { identifyInputs: [] }, 400],
      ['identify with a string body', 'POST', '/bioengine/identify', '"identify"', 400],
      ['verify without body', 'POST', `/bioengine/persons/${person.uuid}/verify`, undefined, 400],
      ['create without samples', 'POST', '/bioengine/biometrics', { templateType, samples: [] }, 400],
      ['unknown plugin cache', 'POST', '/bioengine/createplugincache/Nope', undefined, 400],
      ['person uuid traversal', 'GET', '/v2/gmiserver/person/..%2F..%2Fetc%2Fpasswd', undefined, 400],
      ['tenant code traversal', 'GET', '/v2/gmiserver/tenant/..%2F..%2Fetc', undefined, 400],
      ['person body not JSON', 'POST', `/v2/gmiserver/tenant/${TEST_TENANT}/person`, 'userId=x', 400],
      ['oversize body', 'POST', enroll, JSON.stringify({ templateType, templateContext: 'c1', samples: ['A'.repeat(33 * 1024 * 1024)] }), 413],
      ['unknown endpoint', 'GET', '/bioengine/nothing', undefined, 404],
    ]
    for (const [name, method, path, body, status] of rows) {
      const reply = await t.call(method, path, body)
      expect(reply.status, name).toBe(status)
      const message = path.startsWith('/bioengine') ? reply.body?.message : reply.body?.message
      expect(typeof message, name).toBe('string')
      expect(message.length, name).toBeGreaterThan(5)
      if (path.startsWith('/bioengine')) expect(reply.body, name).toMatchObject({ code: expect.any(Number) })
    }
    // No face, and two faces, where one is needed.
    const blank = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#6a8' } }).jpeg().toBuffer()
    const noFace = await t.call('POST', enroll, { templateType, templateContext: 'c1', samples: [b64(blank)] })
    expect(noFace).toMatchObject({ status: 400, body: { code: 1001 } })
    // A real group photo shipped with face-api: three people.
    const twoFaces = readFileSync(join(projectRoot, 'node_modules/@vladmandic/face-api/demo/sample1.jpg'))
    expect(await t.call('POST', enroll, { templateType, templateContext: 'c1', samples: [b64(twoFaces)] })).toMatchObject({ status: 400, body: { code: 1002 } })

    // After all that, the engine still works.
    expect((await t.call('POST', enroll, { templateType, templateContext: 'c1', samples: [b64(face)] })).status).toBe(201)
  })

  it('enforces every /match limit with a reason naming the image', async () => {
    const small = await sharp(face).resize(149, 149).jpeg().toBuffer()
    const big = await sharp(face).resize(1025, 800).jpeg().toBuffer()
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'binary')
    const noise = await sharp(Buffer.from(Array.from({ length: 1000 * 1000 * 3 }, (_, i) => (i * 2654435761) % 251)), { raw: { width: 1000, height: 1000, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer()
    expect(noise.length).toBeGreaterThan(2 * 1024 * 1024)
    const match = async (files: Array<[string, Buffer, string]>) => {
      const form = new FormData()
      for (const [field, bytes, name] of files) form.append(field, new Blob([bytes]), name)
      const reply = await request(`${t.bio}/match`, { method: 'POST', body: form })
      return { status: reply.statusCode, body: (await reply.body.json()) as { code: number; message: string } }
    }
    const cases: Array<[string, Array<[string, Buffer, string]>, RegExp]> = [
      ['too small', [['Image1', face, 'a.jpg'], ['Image2', small, 'b.jpg']], /Image2: .*at least 150 px/],
      ['too large', [['Image1', big, 'a.jpg'], ['Image2', face, 'b.jpg']], /Image1: .*at most 1024 px/],
      ['wrong format', [['Image1', face, 'a.jpg'], ['Image2', gif, 'b.png']], /Image2: .*not a JPEG or PNG/],
      ['over 2 MB', [['Image1', noise, 'a.png'], ['Image2', face, 'b.jpg']], /larger than 2 MB/],
      ['only one image', [['Image1', face, 'a.jpg']], /Both Image1 and Image2/],
      ['three images', [['Image1', face, 'a.jpg'], ['Image2', face, 'b.jpg'], ['Image3', face, 'c.jpg']], /exactly two images/],
      ['empty file', [['Image1', Buffer.alloc(0), 'a.jpg'], ['Image2', face, 'b.jpg']], /Image1: The file is empty/],
    ]
    for (const [name, files, reason] of cases) {
      const reply = await match(files)
      expect(reply.status, name).toBe(400)
      expect(reply.body.message, name).toMatch(reason)
    }
  })
})
