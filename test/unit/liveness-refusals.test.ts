import { describe, expect, it } from 'vitest'
import { turnDepthRefusal } from '../../electron/engine/bio/liveness'
import { IMAGE_DEPTH_MIN, NOSE_RELIEF_MIN_SHARE, SURFACE_FIT_MAX } from '../../electron/engine/bio/liveness-depth'

// Issue 27: the audit words each refusal by the check that decided it.
describe('a head turn judged by its pixels', () => {
  it('is refused by the surface tracking, in those words, when the face’s points were not followed (never as a depth shortfall)', () => {
    const verdict = turnDepthRefusal('turn-left', { depth: 0.15, surface: SURFACE_FIT_MAX + 0.05, relief: 0.1 })
    expect(verdict).toEqual({
      passed: false,
      detail: `surface tracking: the face's surface could not be followed from the start of the turn to the left to its peak (its points 0.150 of the eye distance off the plane found, at most ${SURFACE_FIT_MAX})`,
    })
  })

  it('is refused by the image depth when the surface was followed and the nose stayed on its plane', () => {
    expect(turnDepthRefusal('turn-right', { depth: 0.008, surface: 0.01, relief: 0.1 })?.detail).toBe(
      `image depth: the face turned to the right like a flat picture, not a head (nose 0.008 of the eye distance off the face's plane, needs ${IMAGE_DEPTH_MIN})`,
    )
  })

  it('is refused by the image depth when the nose stood off the plane but moved with the cheeks beside it (a sheet bent top to bottom)', () => {
    expect(turnDepthRefusal('turn-left', { depth: 0.05, surface: 0.01, relief: 0.015 })?.detail).toBe(
      `image depth: the face turned to the left like a sheet bent top to bottom, not a head (the nose moved with the cheeks beside it: apart by 0.30 of its depth, needs ${NOSE_RELIEF_MIN_SHARE})`,
    )
  })

  it('passes a followed surface with the nose standing out, apart from the cheeks', () => {
    expect(turnDepthRefusal('turn-left', { depth: IMAGE_DEPTH_MIN, surface: SURFACE_FIT_MAX, relief: IMAGE_DEPTH_MIN * NOSE_RELIEF_MIN_SHARE })).toBeNull()
  })
})
