import { describe, expect, it } from 'vitest'
import { PORTRAIT_ASPECT, portraitRect } from '../../renderer/src/frontdesk/portrait'

// The badge photo's frame: head and shoulders around the face the detector found, 3:4, inside the photo.
describe('portraitRect', () => {
  const photo = { width: 640, height: 480 }
  const inside = (r: { x: number; y: number; width: number; height: number }) => {
    expect(r.x).toBeGreaterThanOrEqual(0)
    expect(r.y).toBeGreaterThanOrEqual(0)
    expect(r.x + r.width).toBeLessThanOrEqual(photo.width + 1e-9)
    expect(r.y + r.height).toBeLessThanOrEqual(photo.height + 1e-9)
    expect(r.width / r.height).toBeCloseTo(PORTRAIT_ASPECT, 6)
  }

  it('frames a centred face with room around it, the face a little above the middle', () => {
    const face = { x: 270, y: 160, width: 100, height: 120 }
    const r = portraitRect(face, photo)
    inside(r)
    // The whole face is in, with a margin on every side.
    expect(r.x).toBeLessThan(face.x - 20)
    expect(r.x + r.width).toBeGreaterThan(face.x + face.width + 20)
    expect(r.y).toBeLessThan(face.y - 20)
    expect(r.y + r.height).toBeGreaterThan(face.y + face.height + 20)
    // Centred across, and more room below the face (neck, shoulders) than above.
    expect(r.x + r.width / 2).toBeCloseTo(face.x + face.width / 2, 6)
    expect(r.y + r.height - (face.y + face.height)).toBeGreaterThan(face.y - r.y)
  })

  it('slides the frame inside the photo for a face near an edge', () => {
    const r = portraitRect({ x: 5, y: 8, width: 100, height: 120 }, photo)
    inside(r)
    expect(r.x).toBe(0)
    expect(r.y).toBe(0)
  })

  it('shrinks the frame, still 3:4 around the face, when the face fills the photo', () => {
    const face = { x: 120, y: 40, width: 400, height: 420 }
    const r = portraitRect(face, photo)
    inside(r)
    expect(r.height).toBeCloseTo(photo.height, 6)
    expect(r.x).toBeLessThanOrEqual(face.x + face.width / 2)
    expect(r.x + r.width).toBeGreaterThanOrEqual(face.x + face.width / 2)
  })
})
