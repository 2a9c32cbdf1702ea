import { z } from 'zod'

/**
 * Liveness: the checks this kiosk and its embedded engine understand, as codes a tenant associates
 * with its algorithm (reference §4.3 …/svrgrp/main/alg/{alg_code}/liveness/{liveness_code}), and the
 * wire shapes of a challenge, its evidence and its outcome. One model for renderer, services and engine.
 */

export const livenessChecks = {
  'active-challenge': {
    title: 'Active challenge (blink, turn left, turn right)',
    description:
      'The person blinks and turns their head to the left and to the right, in a new random order each time. A photo held up, moved, tilted or scaled as a whole cannot do it.',
  },
  'screen-light': {
    title: 'Screen light (the screen lights the face in random colours)',
    description:
      'For about four seconds the screen lights the person in colours drawn at random for this attempt. The face must take on each colour as it is shown, and unevenly, as a head does: the nose, cheeks and forehead face the screen differently. A photo, a print or a recording held to the camera cannot follow colours it has not seen.',
  },
  'passive-pad': {
    title: 'Passive presentation-attack score',
    description:
      'Scores the camera frames for signs of a printed photo or a screen (anti-spoofing and liveness models). Needs no action from the person; weaker on its own than the active challenge.',
  },
} as const

export type LivenessCode = keyof typeof livenessChecks
export const livenessCodes = Object.keys(livenessChecks) as [LivenessCode, ...LivenessCode[]]
export const livenessCodeSchema = z.enum(livenessCodes)
export function isLivenessCode(code: string): code is LivenessCode {
  return Object.hasOwn(livenessChecks, code)
}

/** Honest label, shown wherever liveness is offered or reported. */
export const LIVENESS_LIMITS =
  'Not certified: no ISO/IEC 30107-3 evaluation. The active challenge stops flat printed photos, still phone screens, a photo moved, tilted or scaled as a whole, photos swapped in front of the camera, and prints or paper masks curled gently side to side or top to bottom, and most curled tightly; alone, it does not stop a slideshow of the person’s photos in graded poses, about one in seven prints or masks curled tightly, painted eyelids, or a replayed video of the person. The screen light stops a photo, a print, a slideshow or a recording, none of which can follow the colours drawn for the attempt. Neither stops a mask worn or moulded to a face, or an injected camera stream on a compromised machine; in strong sunlight the screen light refuses a real face (the screen’s light is drowned).'

/** The active challenge's steps; the services choose their order per attempt. */
export const challengeSteps = ['blink', 'turn-left', 'turn-right'] as const
export const challengeStepSchema = z.enum(challengeSteps)
export type ChallengeStep = z.infer<typeof challengeStepSchema>

/** What a frame of evidence was taken for: a challenge step, the screen's light, or the passive score alone. */
export const evidenceStepSchema = z.enum([...challengeSteps, 'light', 'passive'])
export type EvidenceStep = z.infer<typeof evidenceStepSchema>

/**
 * The screen-light check's colours: far apart in hue, none a saturated red (R ≥ 80% of R+G+B is
 * the red-flash hazard). Each as the screen shows it (sRGB).
 */
export const LIGHT_RGB = { blue: [40, 90, 255], yellow: [255, 215, 0], green: [0, 210, 90], magenta: [225, 40, 235], cyan: [0, 215, 235], orange: [255, 140, 0] } as const
export const lightColourSchema = z.enum(Object.keys(LIGHT_RGB) as [keyof typeof LIGHT_RGB, ...(keyof typeof LIGHT_RGB)[]])
export type LightColour = z.infer<typeof lightColourSchema>
/** A colour stays at least this long: at most 2.5 changes a second, under three flashes a second (WCAG 2.3.1). */
export const LIGHT_MIN_MS = 400
export const LIGHT_MAX_MS = 550
/** Colours in one sequence (about four seconds), each unlike the one before. */
export const LIGHT_PERIODS = 9
export const lightPeriodSchema = z.object({ colour: lightColourSchema, ms: z.number().int().min(LIGHT_MIN_MS).max(LIGHT_MAX_MS) })
export type LightPeriod = z.infer<typeof lightPeriodSchema>
const lightSequence = z.array(lightPeriodSchema).max(LIGHT_PERIODS)
const lightShownAt = z.array(z.number().finite().nonnegative()).max(LIGHT_PERIODS)

/** A step's evidence is a continuous run of frames (start, the move, undone): at most this many. */
export const MAX_STEP_FRAMES = 12
/** The screen's light is seen in at most this many frames (a few per colour). */
export const MAX_LIGHT_FRAMES = 20
/** Limits of one burst: every step's run and the light's, small enough to bound the work. */
export const MAX_EVIDENCE_FRAMES = MAX_STEP_FRAMES * 3 + MAX_LIGHT_FRAMES
/** A challenge is good for one attempt within this time. */
export const CHALLENGE_TTL_MS = 3 * 60_000

/** Which workflow a challenge is for: it is accepted by that workflow only. */
export const livenessPurposeSchema = z.enum(['enroll', 'verify', 'identify', 'face-match'])
export type LivenessPurpose = z.infer<typeof livenessPurposeSchema>

export const livenessChallengeInput = z.strictObject({ purpose: livenessPurposeSchema })

/** The services' answer before a capture: what this attempt must show, or that nothing is required. */
export const livenessChallengeSchema = z.object({
  /** False when the tenant's algorithms have no liveness association: capture as before, nothing said about liveness. */
  required: z.boolean(),
  /** Null when not required. Single use, for `purpose` only, until `expiresAt`. */
  challengeId: z.uuid().nullable(),
  checks: z.array(livenessCodeSchema),
  /** The active challenge's steps in this attempt's order; empty without 'active-challenge'. */
  steps: z.array(challengeStepSchema),
  /** The colours the screen shows, in order, after the steps; empty without 'screen-light'. */
  light: lightSequence.default([]),
  /** How long the page gives the person for each step before it sends what it has. */
  stepSeconds: z.number().int().positive(),
  expiresAt: z.number(),
})
export type LivenessChallenge = z.infer<typeof livenessChallengeSchema>

const evidenceImage = z.string().min(16, 'an image is required').max(2 * 1024 * 1024, 'an evidence frame is too large')

/** The burst the page captured while guiding the person, sent with the samples. Judged outside the page. */
export const livenessEvidenceInput = z.strictObject({
  challengeId: z.uuid(),
  /**
   * In capture order. Each step's frames start with the frame at the step's start (its neutral pose)
   * and follow the move frame by frame; `at` is when the camera frame was taken (ms, the page's clock).
   */
  frames: z
    .array(z.strictObject({ step: evidenceStepSchema, image: evidenceImage, at: z.number().finite().nonnegative() }))
    .min(1)
    .max(MAX_EVIDENCE_FRAMES),
  /** When the screen showed each of the light's colours (ms, the page's clock, as the frames' times); with the 'light' frames. */
  lightShownAt: lightShownAt.optional(),
})
export type LivenessEvidence = z.infer<typeof livenessEvidenceInput>

/** Staff only: go on without liveness for a person who cannot do the challenge. Audited with its reason. */
export const livenessOverrideInput = z.strictObject({ reason: z.string().trim().min(3, 'say why, in a few words').max(200) })
export type LivenessOverride = z.infer<typeof livenessOverrideInput>

export const livenessCheckResultSchema = z.object({ code: z.string(), passed: z.boolean(), detail: z.string() })

/** What a result says about liveness; null in a result when the tenant requires none. */
export const livenessOutcomeSchema = z.object({
  status: z.enum(['passed', 'failed', 'overridden', 'not-checked']),
  checks: z.array(livenessCheckResultSchema),
  /** Plain words: why it failed, the override's reason, or why it was not checked (a photo file). */
  note: z.string().nullable(),
})
export type LivenessOutcome = z.infer<typeof livenessOutcomeSchema>

/* ---------------------------------------------------------------- the embedded engine's extension */

/**
 * POST {bioengine}/liveness (embedded engine only, bearer token like every BioEngine call): the
 * services send the burst with the challenge's order and the samples it must belong to; the engine
 * recomputes every landmark and score itself and decides.
 */
export const livenessEvaluateRequest = z.strictObject({
  checks: z.array(livenessCodeSchema).min(1).max(livenessCodes.length),
  steps: z.array(challengeStepSchema).max(challengeSteps.length),
  /** The colours the services drew for this attempt (never the page's word for them), and when the page says it showed each. */
  light: lightSequence.default([]),
  lightShownAt: lightShownAt.optional(),
  frames: livenessEvidenceInput.shape.frames,
  /** The samples the burst must show the same face as (1–10 base64 JPEG/PNG). */
  references: z.array(z.string().min(16).max(7_200_000)).min(1).max(10),
})
export type LivenessEvaluateRequest = z.infer<typeof livenessEvaluateRequest>

export const livenessEvaluateRecord = z.object({
  passed: z.boolean(),
  checks: z.array(livenessCheckResultSchema),
  /** Every burst frame shows exactly one face, and it is the samples' face. */
  sameFace: z.boolean(),
  detail: z.string(),
})
export type LivenessEvaluateRecord = z.infer<typeof livenessEvaluateRecord>
