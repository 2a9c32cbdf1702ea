import type { ChallengeStep, EvidenceStep, LivenessChallenge } from '../../../electron/shared/liveness'
import { MAX_EVIDENCE_FRAMES } from '../../../electron/shared/liveness'
import { BLINK_REOPEN_RATIO, frameSignals, judgeStep, turnSign, type FrameSignals, type Mesh, type StepVerdict } from '../../../electron/shared/liveness-motion'

/**
 * The page's side of a liveness challenge, as a pure state machine fed one face-mesh observation
 * per judged frame: which step is asked now, when a step is done, and which frames to keep as
 * evidence. It only guides and picks frames; the services and the embedded engine decide.
 *
 * Evidence per step (each step's frames contiguous, in the challenge's order): first the frame the
 * engine measures from, the best start seen before the move (for a turn the frame turned farthest
 * the other way: a person still turned from the last step comes back first; for a blink the eyes
 * widest open), then the frame where the move was seen and a few after it (a turn's peak; a blink's
 * other closed frames, then an open one). Passive only: PASSIVE_FRAMES frames PASSIVE_GAP_MS apart.
 */

/** The words the person reads for each step; the e2e tests drive the page by them. */
export const STEP_PROMPTS: Record<EvidenceStep, string> = {
  blink: 'Blink your eyes',
  'turn-left': 'Turn your head to your left',
  'turn-right': 'Turn your head to your right',
  passive: 'Look at the camera and hold still',
}

/**
 * For a turn the page asks a little more than the engine (which measures the JPEG of the same
 * frame); not much more: at 1.15 it missed recorded turns the engine passes. The frames kept after
 * the turn is first seen give the engine the turn's peak.
 */
export const PAGE_MARGIN = 1.05
/**
 * A blink is asked at the engine's own limit: the page sends the frame it first saw closed and the
 * closed ones after it, so the engine judges those very frames. A margin here refused recorded blinks
 * the engine passes (0.53–0.56 of open).
 */
export const BLINK_PAGE_MARGIN = 1
/** Frames kept after a turn is first seen (the head is usually still turning): the engine picks the deepest. */
export const TURN_FOLLOW_FRAMES = 2
/** Closed frames kept after a blink is first seen, before the open one: the engine may judge any of them. */
export const BLINK_FOLLOW_FRAMES = 2
export const PASSIVE_FRAMES = 4
export const PASSIVE_GAP_MS = 250
/** A blink is over once the eyes are open again to this share of the start's openness (a little above the engine's). */
export const REOPENED = BLINK_REOPEN_RATIO * 1.05

/** The motion checks the run uses (electron/shared/liveness-motion.ts unless a test brings its own). */
export interface MotionChecks {
  judgeStep: (step: ChallengeStep, meshes: readonly Mesh[], options: { margin?: number; reopen?: boolean }) => StepVerdict
  frameSignals: (mesh: Mesh) => FrameSignals
}
const sharedChecks: MotionChecks = { judgeStep, frameSignals }

/** What the loop saw in one frame: every face's mesh (empty when a face had none). */
export interface Observation {
  at: number
  meshes: readonly Mesh[]
}

/** Which frame to encode: the one just observed, or the one held back earlier (a blink's closed frame). */
export interface Grab {
  step: EvidenceStep
  frame: 'current' | 'held'
}

export interface RunUpdate {
  grabs: Grab[]
  /** Copy the current frame aside: it may become a grab with frame 'held'. */
  hold: boolean
}

export type RunStatus = 'running' | 'passed' | 'timed-out'

export interface RunView {
  status: RunStatus
  step: EvidenceStep
  prompt: string
  /** 1-based, of `stepCount`. */
  stepNumber: number
  stepCount: number
  /** Whole seconds left for this step (rounded up). */
  secondsLeft: number
  /** Why the step cannot progress now, or null. */
  hint: string | null
}

const MESH_POINTS = 468

export class LivenessRun {
  private readonly steps: EvidenceStep[]
  private readonly stepMs: number
  private index = 0
  private stepStartedAt: number | null = null
  private now = 0
  /** The frame the step is measured from (held aside until the move is seen), and its lead (lower is a better start). */
  private start: Mesh | null = null
  private startLead = 0
  /** The move was seen and sent: what follows are its after-frames. */
  private seen = false
  private following = 0
  private passiveTaken = 0
  private lastPassiveAt = -Infinity
  private grabbed = 0
  private hint: string | null = null
  status: RunStatus = 'running'

  constructor(
    challenge: Pick<LivenessChallenge, 'steps' | 'stepSeconds'>,
    private readonly checks: MotionChecks = sharedChecks,
  ) {
    this.steps = challenge.steps.length > 0 ? [...challenge.steps] : ['passive']
    this.stepMs = challenge.stepSeconds * 1000
  }

  /** Frames grabbed so far. */
  get frames(): number {
    return this.grabbed
  }

  view(): RunView {
    const step = this.steps[Math.min(this.index, this.steps.length - 1)]!
    const elapsed = this.stepStartedAt === null ? 0 : this.now - this.stepStartedAt
    return {
      status: this.status,
      step,
      prompt: STEP_PROMPTS[step],
      stepNumber: Math.min(this.index + 1, this.steps.length),
      stepCount: this.steps.length,
      secondsLeft: Math.max(0, Math.ceil((this.stepMs - elapsed) / 1000)),
      hint: this.hint,
    }
  }

  update({ at, meshes }: Observation): RunUpdate {
    const out: RunUpdate = { grabs: [], hold: false }
    if (this.status !== 'running') return out
    this.now = at
    this.stepStartedAt ??= at
    const step = this.steps[this.index]!
    const faces = meshes.length
    const mesh = faces === 1 && meshes[0]!.length >= MESH_POINTS ? meshes[0]! : null
    this.hint = mesh ? null : faces > 1 ? 'Only one person in front of the camera, please.' : 'Look at the camera with your face inside the oval.'

    if (mesh) {
      if (step === 'passive') this.passive(at, out)
      else if (this.seen) this.after(step, mesh, out)
      else this.watch(step, mesh, out)
    }
    if (this.status === 'running' && at - this.stepStartedAt >= this.stepMs) {
      // Out of time: the page sends what it has (at least one frame) and the services decide.
      if (this.grabbed + out.grabs.length === 0) this.take(out, step, 'current')
      this.status = 'timed-out'
    }
    return out
  }

  private take(out: RunUpdate, step: EvidenceStep, frame: Grab['frame']): void {
    if (this.grabbed >= MAX_EVIDENCE_FRAMES) return
    this.grabbed++
    out.grabs.push({ step, frame })
  }

  /**
   * Before the move: a frame that makes a better start replaces the held one (so a step that begins
   * mid-move, or with the head still turned from the last step, is measured from where the person
   * comes back to); otherwise the move is judged from the start. Once seen, the held start and this
   * frame are sent.
   */
  private watch(step: ChallengeStep, mesh: Mesh, out: RunUpdate): void {
    const lead = this.lead(step, mesh)
    if (this.start === null || lead < this.startLead) {
      this.start = mesh
      this.startLead = lead
      out.hold = true
      return
    }
    // Each frame is judged against the start alone: the frames before it already were, against the same start
    // (one homography per frame, not a window's). The eyes closing is enough here (reopen: false): the page
    // then waits for them to open and sends that frame too.
    const margin = step === 'blink' ? BLINK_PAGE_MARGIN : PAGE_MARGIN
    if (!this.checks.judgeStep(step, [this.start, mesh], { margin, reopen: false }).passed) return
    this.take(out, step, 'held')
    this.take(out, step, 'current')
    this.seen = true
    this.following = step === 'blink' ? BLINK_FOLLOW_FRAMES : TURN_FOLLOW_FRAMES
  }

  /** A start's lead: for a turn the nose toward the side asked, for a blink the eyes' openness negated. */
  private lead(step: ChallengeStep, mesh: Mesh): number {
    const { openness, parallax } = this.checks.frameSignals(mesh)
    return step === 'blink' ? -openness : turnSign(step) * parallax
  }

  /** After the move: a turn's next frames (the engine judges its peak); a blink's closed frames, then the first open one. */
  private after(step: ChallengeStep, mesh: Mesh, out: RunUpdate): void {
    if (step === 'blink') {
      if (this.checks.frameSignals(mesh).openness >= REOPENED * -this.startLead) {
        this.take(out, step, 'current')
        this.next()
      } else if (this.following > 0) {
        this.following--
        this.take(out, step, 'current')
      }
      return
    }
    this.take(out, step, 'current')
    if (--this.following === 0) this.next()
  }

  private passive(at: number, out: RunUpdate): void {
    if (at - this.lastPassiveAt < PASSIVE_GAP_MS) return
    this.lastPassiveAt = at
    this.passiveTaken++
    this.take(out, 'passive', 'current')
    if (this.passiveTaken >= PASSIVE_FRAMES) this.next()
  }

  private next(): void {
    this.index++
    this.stepStartedAt = this.now
    this.start = null
    this.seen = false
    this.following = 0
    if (this.index >= this.steps.length) this.status = 'passed'
  }
}
