import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { projectRoot } from '../support/process'

export interface FuzzImages {
  /** One face (the generated fixture), as a JPEG: gets all the way through inference. */
  face: Buffer
  /** Image bytes a sample or a /match file may carry: real, blank, damaged, lying, not images. */
  files: Buffer[]
  /** Sample strings: the files above in base64, plus strings that are not valid base64 at all. */
  samples: string[]
  /** The samples the engine decodes and runs through its face models (the rest it refuses first). */
  decodable: string[]
}

/** A PNG whose IHDR declares width×height over a 64×64 image (the CRC no longer matches either). */
async function lyingPng(width: number, height: number): Promise<Buffer> {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } }).png().toBuffer()
  png.writeUInt32BE(width, 16)
  png.writeUInt32BE(height, 20)
  return png
}

const blank = (width: number, height: number, format: 'png' | 'jpeg') => sharp({ create: { width, height, channels: 3, background: '#6a8' } })[format]().toBuffer()

export async function fuzzImages(): Promise<FuzzImages> {
  const face = await sharp(readFileSync(join(projectRoot, 'test/fixtures/generated/face.png'))).jpeg().toBuffer()
  const decodable = [
    face,
    await blank(200, 200, 'jpeg'),
    await blank(64, 64, 'png'),
    await blank(4096, 4096, 'png'), // the largest sample side: ~50 KB that decode to 48 MB of pixels
  ]
  const files = [
    ...decodable,
    await blank(1, 1, 'png'), // tiny
    await blank(47, 47, 'png'), // one pixel under the sample minimum
    await lyingPng(60_000, 60_000), // declares a 3.6-gigapixel image
    await lyingPng(4097, 1),
    await lyingPng(0, 0),
    face.subarray(0, Math.floor(face.length / 3)), // truncated JPEG
    Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'binary'),
    Buffer.from('hello, not an image'),
    Buffer.from([0xff, 0xd8, 0xff]), // a JPEG signature and nothing else
    Buffer.alloc(0),
  ]
  const samples = [...files.map((bytes) => bytes.toString('base64')), '***not base64***', 'QUJD', 'A', `${face.toString('base64')}\n\n`, 'data:image/jpeg;base64,/9j/']
  return { face, files, samples, decodable: decodable.map((bytes) => bytes.toString('base64')) }
}
