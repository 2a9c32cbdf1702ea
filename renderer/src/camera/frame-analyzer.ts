import { fitWithinLimits } from '@shared/image-limits'
import type { FaceDetector } from './detector'
import { canvas, context2d, readRegion } from './frame-canvas'
import { assessFrame, CROP_WIDTH, innerFaceRegion, type Assessment, type FaceObservation } from './quality'

/** Detection runs on a copy this wide: BlazeFace looks at 256 px anyway; plenty for a face in the oval. */
const DETECT_WIDTH = 320

export interface FrameAnalysis {
  /** Faces in full-frame pixels, largest first. */
  faces: FaceObservation[]
  assessment: Assessment
  /** performance.now() when the frame was judged. */
  at: number
}

/**
 * The pixels side of the quality loop: grabs the video's current frame into `frame`, detects on a
 * small copy, maps the faces back to full-frame pixels and judges the frame against the previous
 * one. Canvases are made once per camera size, not per frame.
 */
export class FrameAnalyzer {
  readonly width: number
  readonly height: number
  /** The last grabbed frame, full size (the loop copies the best one from here). */
  readonly frame: HTMLCanvasElement
  private readonly frameCtx: CanvasRenderingContext2D
  private readonly small: HTMLCanvasElement
  private readonly smallCtx: CanvasRenderingContext2D
  private readonly crop = canvas(CROP_WIDTH, CROP_WIDTH)
  private readonly tiny = canvas(32, 24)
  private readonly scale: number
  private readonly outputScale: number
  private previous: FaceObservation | null = null
  private previousAt = 0

  constructor(
    private readonly video: HTMLVideoElement,
    private readonly detector: FaceDetector,
  ) {
    this.width = video.videoWidth
    this.height = video.videoHeight
    this.frame = canvas(this.width, this.height)
    this.frameCtx = context2d(this.frame)
    this.small = canvas(DETECT_WIDTH, Math.round((DETECT_WIDTH * this.height) / this.width))
    this.smallCtx = context2d(this.small, true)
    this.scale = this.small.width / this.width
    this.outputScale = fitWithinLimits(this.width, this.height)?.scale ?? 1
  }

  async analyze(): Promise<FrameAnalysis> {
    const { width, height, frame, small } = this
    this.frameCtx.drawImage(this.video, 0, 0, width, height)
    this.smallCtx.drawImage(frame, 0, 0, small.width, small.height)
    const faces = (await this.detector.detect(small)).map((f) => toFramePixels(f, this.scale))
    const face = faces[0]
    const at = performance.now()
    const assessment = assessFrame({
      frame: { width, height },
      faces,
      crop: face && faces.length === 1 ? readRegion(frame, innerFaceRegion(face.box, { width, height }), this.crop) : null,
      previous: this.previous,
      elapsedMs: at - this.previousAt,
      // With no face, the frame's own brightness tells "too dark" from "no one there".
      frameLuma: face ? undefined : this.meanLuma(),
      outputScale: this.outputScale,
    })
    this.previous = faces.length === 1 && face ? face : null
    this.previousAt = at
    return { faces, assessment, at }
  }

  /** Mean luma (0–255) of the small copy, read from a 32×24 thumbnail of it. */
  private meanLuma(): number {
    const ctx = context2d(this.tiny, true)
    ctx.drawImage(this.small, 0, 0, this.tiny.width, this.tiny.height)
    const pixels = ctx.getImageData(0, 0, this.tiny.width, this.tiny.height).data
    let sum = 0
    for (let p = 0; p < pixels.length; p += 4) sum += 0.299 * pixels[p]! + 0.587 * pixels[p + 1]! + 0.114 * pixels[p + 2]!
    return sum / (pixels.length / 4)
  }
}

/** A face found on the small copy, in full-frame pixels. */
function toFramePixels(face: FaceObservation, scale: number): FaceObservation {
  return {
    ...face,
    box: { x: face.box.x / scale, y: face.box.y / scale, width: face.box.width / scale, height: face.box.height / scale },
    leftEye: face.leftEye && { x: face.leftEye.x / scale, y: face.leftEye.y / scale },
    rightEye: face.rightEye && { x: face.rightEye.x / scale, y: face.rightEye.y / scale },
    mesh: face.mesh?.map(([x = 0, y = 0, z = 0]) => [x / scale, y / scale, z / scale]),
  }
}
