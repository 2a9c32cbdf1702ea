import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { KioskError, unwrapEnvelope } from '../../electron/shared/errors'
import type { Backend } from '../../electron/services/backend'
import { ApiError } from '../../electron/services/clients/api-error'
import { faceMatch } from '../../electron/services/workflows/face-match'
import { matchNextStep } from '../../renderer/src/screens/match-errors'
import { projectRoot } from '../support/process'

// Face match errors for the operator: plain words naming the photo, never the engine's
// HTTP status or its field names, and the next step that fits where the photo came from.
const photo = readFileSync(join(projectRoot, 'test/fixtures/generated/person-a1.jpg')).toString('base64')
const refusing = (error: Error) => ({ bio: { match: () => Promise.reject(error) } }) as unknown as Backend
const refused = async (error: Error): Promise<KioskError> => {
  try {
    await faceMatch(refusing(error), { image1: photo, image2: photo })
  } catch (caught) {
    return caught as KioskError
  }
  throw new Error('face match did not fail')
}

describe('face match errors from the services', () => {
  it('two faces in the second image: the second photo named, no HTTP status, no engine field names', async () => {
    const error = await refused(new ApiError('MULTIPLE_FACES', 'The BioEngine refused face match (HTTP 400): Image2 shows 2 faces; it must show exactly one.', 400, 1002))
    expect(error.code).toBe('MULTIPLE_FACES')
    expect(error.about).toBe('image2')
    expect(error.message).toBe('The second photo (Image 2) shows 2 faces; face match needs exactly one face in each photo.')
  })

  it('no face in the first image', async () => {
    const error = await refused(new ApiError('NO_FACE', 'The BioEngine refused face match (HTTP 400): No face was found in Image1.', 400, 1001))
    expect(error).toMatchObject({ code: 'NO_FACE', about: 'image1', message: 'No face was found in the first photo (Image 1).' })
  })

  it('an image the engine cannot decode', async () => {
    const error = await refused(new ApiError('BAD_IMAGE', 'The BioEngine refused face match (HTTP 400): Image2 could not be decoded: bad Huffman table', 400, 1003))
    expect(error).toMatchObject({ code: 'BAD_IMAGE', about: 'image2', message: 'The second photo (Image 2) could not be read; it may be damaged.' })
  })

  it('a face error that does not say which image: both photos named, still no HTTP status', async () => {
    const error = await refused(new ApiError('MULTIPLE_FACES', 'The BioEngine refused face match (HTTP 400): too many faces', 400, 1002))
    expect(error.about).toBeUndefined()
    expect(error.message).toBe('One of the photos shows more than one face; face match needs exactly one face in each photo.')
  })

  it('an image outside the limits is named before anything is sent', async () => {
    const tooSmall = Buffer.from('not an image').toString('base64')
    await expect(faceMatch(refusing(new Error('not sent')), { image1: photo, image2: tooSmall })).rejects.toMatchObject({ code: 'BAD_IMAGE', about: 'image2', message: expect.stringMatching(/^The second photo \(Image 2\) cannot be used\. /) })
  })

  it('other errors pass unchanged', async () => {
    const down = new ApiError('UNREACHABLE', 'The BioEngine could not be reached for face match (ECONNREFUSED).', null)
    expect(await refused(down)).toBe(down)
  })

  it('which photo an error is about crosses the bridge', () => {
    const error = new KioskError('NO_FACE', 'No face was found in the first photo (Image 1).', { about: 'image1' })
    const crossed = (() => {
      try {
        unwrapEnvelope(JSON.parse(JSON.stringify({ ok: false, error: error.toJSON() })))
      } catch (caught) {
        return caught as KioskError
      }
    })()
    expect(crossed?.about).toBe('image1')
  })
})

describe('the next step the Face match screen offers', () => {
  const error = (code: KioskError['code'], about?: 'image1' | 'image2') => new KioskError(code, 'words', { about })
  const files = { image1: 'file', image2: 'file' } as const

  it('a photo file: choose another file for that photo, never "capture again"', () => {
    const next = matchNextStep(error('MULTIPLE_FACES', 'image2'), files)
    expect(next).toBe('Choose another file for the second photo, showing only the person to compare.')
    expect(next).not.toMatch(/capture/i)
    expect(matchNextStep(error('NO_FACE', 'image1'), files)).toBe('Choose another file for the first photo, with the face clearly visible.')
    expect(matchNextStep(error('BAD_IMAGE', 'image1'), files)).toBe('Choose another file for the first photo (JPEG or PNG).')
  })

  it('a camera photo: take that photo again', () => {
    const sources = { image1: 'file', image2: 'camera' } as const
    expect(matchNextStep(error('MULTIPLE_FACES', 'image2'), sources)).toBe('Take the second photo again with the camera, with only the person to compare in view.')
    expect(matchNextStep(error('NO_FACE', 'image2'), sources)).toBe('Take the second photo again with the camera, the face clearly in view.')
  })

  it('a face error about neither photo in particular: check both', () => {
    expect(matchNextStep(error('NO_FACE'), files)).toBe('Check that each photo shows exactly one clear face, and replace the one that does not.')
  })

  it('other errors keep the usual next step', () => {
    expect(matchNextStep(error('UNREACHABLE'), files)).toBe('Check the network or the server, then try again.')
  })
})
