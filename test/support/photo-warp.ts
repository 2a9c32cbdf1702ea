import sharp from 'sharp'

/**
 * A still photo shown to a camera and moved as a whole: the photo's plane is rolled in place,
 * turned about its vertical axis (yaw) or tilted back (pitch), scaled and shifted, then seen through
 * a pinhole camera (focal 1.2× the larger side). What a presentation attack with a print or a phone
 * screen looks like to the camera, made in the test from a photo shipped in an npm package.
 */
export interface PlaneMove {
  yaw?: number
  pitch?: number
  roll?: number
  scale?: number
  dx?: number
  dy?: number
}

type Raw = { data: Uint8Array; width: number; height: number }

/** Photo bytes → RGB pixels, at most `maxWidth` wide (a camera frame's size). */
export async function photoPixels(bytes: Buffer | string, maxWidth = 640): Promise<Raw> {
  const { data, info } = await sharp(bytes).removeAlpha().resize({ width: maxWidth, withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true })
  return { data: new Uint8Array(data), width: info.width, height: info.height }
}

export async function jpeg(raw: Raw, quality = 85): Promise<Buffer> {
  return sharp(Buffer.from(raw.data), { raw: { width: raw.width, height: raw.height, channels: 3 } }).jpeg({ quality }).toBuffer()
}

export function movePlane(src: Raw, move: PlaneMove, background = 90): Raw {
  const { width: w, height: h } = src
  const f = Math.max(w, h) * 1.2
  const [cx, cy] = [w / 2, h / 2]
  const rad = (d = 0) => (d * Math.PI) / 180
  const [ay, ap, ar, s] = [rad(move.yaw), rad(move.pitch), rad(move.roll), move.scale ?? 1]
  const forward = (X: number, Y: number): [number, number] => {
    let [x, y, z] = [X * Math.cos(ar) - Y * Math.sin(ar), X * Math.sin(ar) + Y * Math.cos(ar), 0]
    ;[x, z] = [x * Math.cos(ay) + z * Math.sin(ay), -x * Math.sin(ay) + z * Math.cos(ay)]
    ;[y, z] = [y * Math.cos(ap) - z * Math.sin(ap), y * Math.sin(ap) + z * Math.cos(ap)]
    return [cx + (move.dx ?? 0) + (s * f * x) / (f + z), cy + (move.dy ?? 0) + (s * f * y) / (f + z)]
  }
  const corners: Array<[number, number]> = [[-cx, -cy], [cx, -cy], [cx, cy], [-cx, cy]]
  const inverse = homographyFrom4(corners.map(([x, y]) => forward(x, y)), corners)
  const out = new Uint8Array(w * h * 3).fill(background)
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const d = inverse[6]! * x + inverse[7]! * y + 1
      const X = (inverse[0]! * x + inverse[1]! * y + inverse[2]!) / d + cx
      const Y = (inverse[3]! * x + inverse[4]! * y + inverse[5]!) / d + cy
      const [xi, yi] = [Math.floor(X), Math.floor(Y)]
      if (xi < 0 || yi < 0 || xi >= w - 1 || yi >= h - 1) continue
      const [fx, fy] = [X - xi, Y - yi]
      for (let c = 0; c < 3; c++) {
        const p = (yy: number, xx: number) => src.data[(yy * w + xx) * 3 + c]!
        out[(y * w + x) * 3 + c] = Math.round(
          p(yi, xi) * (1 - fx) * (1 - fy) + p(yi, xi + 1) * fx * (1 - fy) + p(yi + 1, xi) * (1 - fx) * fy + p(yi + 1, xi + 1) * fx * fy,
        )
      }
    }
  }
  return { data: out, width: w, height: h }
}

/** The homography (h33 = 1) taking four points onto four others (Gaussian elimination, 8 unknowns). */
function homographyFrom4(from: Array<[number, number]>, to: Array<[number, number]>): number[] {
  const a: number[][] = []
  const b: number[] = []
  from.forEach(([x, y], i) => {
    const [u, v] = to[i]!
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y])
    b.push(u)
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y])
    b.push(v)
  })
  for (let i = 0; i < 8; i++) {
    let p = i
    for (let j = i + 1; j < 8; j++) if (Math.abs(a[j]![i]!) > Math.abs(a[p]![i]!)) p = j
    ;[a[i], a[p]] = [a[p]!, a[i]!]
    ;[b[i], b[p]] = [b[p]!, b[i]!]
    for (let j = i + 1; j < 8; j++) {
      const k = a[j]![i]! / a[i]![i]!
      for (let c = i; c < 8; c++) a[j]![c]! -= k * a[i]![c]!
      b[j]! -= k * b[i]!
    }
  }
  const x = new Array<number>(8).fill(0)
  for (let i = 7; i >= 0; i--) {
    let s = b[i]!
    for (let c = i + 1; c < 8; c++) s -= a[i]![c]! * x[c]!
    x[i] = s / a[i]![i]!
  }
  return x
}
