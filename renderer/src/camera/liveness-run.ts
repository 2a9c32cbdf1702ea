import type { ChallengeStep, EvidenceStep, LivenessChallenge } from '../../../electron/shared/liveness'
import { MAX_EVIDENCE_FRAMES } from '../../../electron/shared/liveness'
import { BLINK_REOPEN_RATIO, frameSignals, judgeStep, type FrameSignals, type Mesh, type StepVerdict } from '../../../electron/shared/liveness-motion'

/**
 * The page's side of a liveness challenge, as a pure state machine fed one face-mesh observation
 * per judged frame: which step is asked now, when a step is done, and which frames to keep as
 * evidence. It only guides and picks frames; the services and the embedded engine decide.
 *
 * Evidence per step (each step's frames contiguous, in the challenge's order): the step-start frame
 * (neutral pose), then for a blink the most-closed frame and an open one after, for a turn the frame
 * where the turn was seen and the TURN_FOLLOW_FRAMES after it. Passive only: PASSIVE_FRAMES frames PASSIVE_GAP_MS apart.
 */

/** The words the person reads for each step; the e2e tests drive the page by them. */
export const STEP_PROMPTS: Record<EvidenceStep, string> = {
  blink: 'Blink your eyes',
  'turn-left': 'Turn your head to your left',
  'turn-right': 'Turn your head to your right',
  passive: 'Look at the camera and hold still',
}

/**
 * For a turn the page asks a little more than the engine; not much more: its mesh runs on a smaller
 * copy, and at 1.15 it missed recorded turns the engine passes. The frames kept after the turn is
 * first seen give the engine the turn's peak.
 */
export const PAGE_MARGIN = 1.05
/**
 * A blink is asked at the engine's own limit: the page keeps the deepest closed frame it saw, so the
 * engine judges that very frame. A margin here refused recorded blinks the engine passes (0.53–0.56 of open).
 */
export const BLINK_PAGE_MARGIN = 1
/** Frames kept after a turn is first seen (the head is usually still turning): the engine picks the deepest. */
export const TURN_FOLLOW_FRAMES = 2
export const PASSIVE_FRAMES = 4
export const PASSIVE_GAP_MS = 250
/** Meshes after the step's start that judgeStep looks at: ~1.5 s at 15–20 fps bounds its work per frame. */
export const JUDGE_WINDOW = 24
/** A blink is over once both eyes are open again to this share of the step-start openness (a little above the engine's). */
export const REOPENED = Math.min(0.95, BLINK_REOPEN_RATIO * 1.1)

/** The motion checks the run uses (electron/shared/liveness-motion.ts unless a test brings its own). */
export interface MotionChecks {
  judgeStep: (step: ChallengeStep, meshes: readonly Mesh[], options: { margin?: number; reopen?: boolean }) => StepVerdict
  frameSignals: (mesh: Mesh) => Pick<FrameSignals, 'openness'>
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
  private start: Mesh | null = null
  private startOpenness = 0
  private window: Mesh[] = []
  private lowest = Infinity
  private held = false
  private closedTaken = false
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
      else if (!this.start) this.begin(mesh, step, out)
      else if (step === 'blink') this.blink(mesh, out)
      else this.turn(step, mesh, out)
    }
    if (this.status === 'running' && this.following === 0 && at - this.stepStartedAt >= this.stepMs) {
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

  private begin(mesh: Mesh, step: EvidenceStep, out: RunUpdate): void {
    this.start = mesh
    this.startOpenness = this.checks.frameSignals(mesh).openness
    this.lowest = this.startOpenness
    this.take(out, step, 'current')
  }

  private blink(mesh: Mesh, out: RunUpdate): void {
    this.remember(mesh)
    const openness = this.checks.frameSignals(mesh).openness
    if (openness < this.lowest) {
      this.lowest = openness
      this.held = true
      out.hold = true
    }
    if (!this.closedTaken) {
      // The eyes closing is enough here (reopen: false): the page then waits for them to open and keeps that frame too.
      if (!this.checks.judgeStep('blink', [this.start!, ...this.window], { margin: BLINK_PAGE_MARGIN, reopen: false }).passed) return
      this.closedTaken = true
      this.take(out, 'blink', this.held && !out.hold ? 'held' : 'current')
      if (out.hold) return // the closed frame is this one: wait for the eyes to open
    }
    if (openness >= REOPENED * this.startOpenness) {
      this.take(out, 'blink', 'current')
      this.next()
    }
  }

  private turn(step: ChallengeStep, mesh: Mesh, out: RunUpdate): void {
    if (this.following > 0) {
      // The turn was seen: the next frames go too, so the engine judges the turn's peak, not its first sight.
      this.take(out, step, 'current')
      if (--this.following === 0) this.next()
      return
    }
    this.remember(mesh)
    if (!this.checks.judgeStep(step, [this.start!, ...this.window], { margin: PAGE_MARGIN }).passed) return
    this.take(out, step, 'current')
    this.following = TURN_FOLLOW_FRAMES
  }

  private passive(at: number, out: RunUpdate): void {
    if (at - this.lastPassiveAt < PASSIVE_GAP_MS) return
    this.lastPassiveAt = at
    this.passiveTaken++
    this.take(out, 'passive', 'current')
    if (this.passiveTaken >= PASSIVE_FRAMES) this.next()
  }

  private remember(mesh: Mesh): void {
    this.window.push(mesh)
    if (this.window.length > JUDGE_WINDOW) this.window.shift()
  }

  private next(): void {
    this.index++
    this.stepStartedAt = this.now
    this.start = null
    this.window = []
    this.lowest = Infinity
    this.held = false
    this.closedTaken = false
    if (this.index >= this.steps.length) this.status = 'passed'
  }
}
