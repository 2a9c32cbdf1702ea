import type { ChallengeStep, EvidenceStep, LightColour, LightPeriod, LivenessChallenge } from '@shared/liveness'
import { MAX_EVIDENCE_FRAMES, MAX_LIGHT_FRAMES, MAX_STEP_FRAMES } from '@shared/liveness'
import { BLINK_REOPEN_RATIO, frameSignals, judgeStep, turnSign, type FrameSignals, type Mesh, type StepVerdict } from '@shared/liveness-motion'
import { judgeTiming, judgeTurnPath, MAX_FRAME_GAP_MS, TURN_JUMP_MIN } from '@shared/liveness-continuity'
import { t } from '../i18n'
import { LightShow } from './light-show'

/**
 * The page's side of a liveness challenge, as a pure state machine fed one face-mesh observation
 * per judged frame: which step is asked now, when a step is done, and which frames to keep as
 * evidence. It only guides and picks frames; the services and the embedded engine decide.
 *
 * Evidence per step (each step's frames contiguous, in the challenge's order) is a continuous run of
 * the frames the loop judged, every one of them: from the best start seen shortly before the move
 * (for a turn the frame turned farthest the other way: a person still turned from the last step
 * comes back first; for a blink the eyes widest open), through the move, until it is undone (a turn
 * back a quarter of the way and at least TURN_BACK_MIN, the eyes open again). The engine refuses a run whose face jumps between
 * frames, so a cut between two photos is not a turn. A frame without exactly one face breaks the run:
 * the step starts over. Passive only: PASSIVE_FRAMES frames PASSIVE_GAP_MS apart.
 */

/** The words the person reads for each step, in their language; the e2e tests drive the page by them. */
export const stepPrompt = (step: EvidenceStep): string => t(`liveness.prompt.${step}`)

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
/** Before the move, the start is one of this many latest frames (the person may wait before moving). */
export const WATCH_FRAMES = 6
/**
 * A turn is sent only when its farthest frame passes the engine's marks (nose shift, depth) with
 * this margin: recorded turns that only just passed the page were measured just short by the engine.
 */
export const TURN_SEND_MARGIN = 1.4
/**
 * A turn is over once the nose is back this share of the way from its farthest to the start: the
 * start is often the head turned the other way, so coming back to facing the camera is about this.
 */
export const TURN_BACK_SHARE = 0.25
/**
 * ...and at least this far (of the eye distance): the engine's mesh on the JPEG places the nose up to
 * ~0.03 off the page's on a small turn (the recorded franck clip's), so a quarter of such a turn
 * (about 0.02) can read as no return at all at the engine. Over that clip's turns at 5–15 judged
 * frames a second this asks nothing the clip does not do: none of its steps runs out of time.
 */
export const TURN_BACK_MIN = 0.05
/**
 * The page judges its frames' nose path by the engine's continuity rule this much more strictly
 * before sending: the engine's mesh on the JPEG places the nose up to ~0.03 of the eye distance off
 * the page's, so a path only just inside the rule on the page was refused as a jump.
 */
export const CONTINUITY_PAGE_MARGIN = 1.1
export const PASSIVE_FRAMES = 4
export const PASSIVE_GAP_MS = 250
/**
 * A blink is over once the eyes are open again to this share of the start's openness, above the
 * engine's by a margin: on the JPEG it receives, the engine can measure a recorded blink's
 * reopening a little short of the page's (at 1.05 times its mark, too short).
 */
export const REOPENED = BLINK_REOPEN_RATIO * 1.12
/**
 * A blink is measured from open eyes: a start below this share of the widest the eyes were over the
 * last OPEN_LEVEL_FRAMES is mid-blink (the step began as the person blinked). From there the engine
 * cannot see the eyes' pixels change (it refused such a run), so the page waits for the eyes to open.
 * Open eyes vary ±15% frame to frame; recorded mid-blink starts were 0.59–0.67 of open.
 */
export const BLINK_START_OPEN = 0.8
export const OPEN_LEVEL_FRAMES = 15

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

/** A frame to send: the one `back` observations before the current one (0: the current one). */
export interface Grab {
  step: EvidenceStep
  back: number
}

export interface RunUpdate {
  grabs: Grab[]
}

/**
 * How many observations back a grab may reach: the loop keeps this many latest frames (4 s at the
 * loop's 10 a second; a slow turn, out and back, takes about 3). A step's run is at most this many
 * frames, each with one face, so it never reaches further (a longer one is watched again from its
 * latest frames); a run longer than MAX_STEP_FRAMES is sent thinned evenly, its first and last
 * frames included (a slow motion loses nothing by it).
 */
export const FRAMES_KEPT = 40

/**
 * The screen's light goes on this long after its last colour: a camera shows the screen's light a
 * little late (the engine allows up to LIGHT_DELAY_MAX_MS), and the frames must cover the last colour.
 */
const LIGHT_TAIL_MS = 450
/** More time than the light takes, for a face that leaves the picture for a moment. */
const LIGHT_SPARE_MS = 4000

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

interface Seen {
  /** The observation's number (each update is one). */
  index: number
  /** When its camera frame was taken: the time sent with it. */
  at: number
  mesh: Mesh
}

export class LivenessRun {
  private readonly steps: EvidenceStep[]
  private readonly stepMs: number
  private index = 0
  private stepStartedAt: number | null = null
  private now = 0
  private observed = 0
  /** The step's run so far: its start first (the best start seen lately), then every frame after it. */
  private run: Seen[] = []
  private startLead = 0
  /** The move was seen: the run goes on until it is undone. */
  private seen = false
  /** A turn's farthest shift from the start so far. */
  private farthest = 0
  /** Where in the run the move was seen, and its deepest frame (a turn's farthest, a blink's most closed). */
  private seenAt = 0
  private deepest = 0
  private lowest = Infinity
  /** Eye openness of the latest frames, whatever the step. */
  private openness: number[] = []
  private passiveTaken = 0
  private lastPassiveAt = -Infinity
  private readonly light: LightPeriod[]
  /** The light as the screen painted it: when each colour went on is sent with the frames. */
  readonly lightShow: LightShow
  private lightTaken = 0
  private lastLightAt = -Infinity
  private grabbed = 0
  private hint: string | null = null
  status: RunStatus = 'running'

  constructor(
    challenge: Pick<LivenessChallenge, 'steps' | 'stepSeconds'> & { light?: LightPeriod[] },
    private readonly checks: MotionChecks = sharedChecks,
  ) {
    this.light = challenge.light ?? []
    this.lightShow = new LightShow(this.light)
    const steps: EvidenceStep[] = [...challenge.steps, ...(this.light.length > 0 ? (['light'] as const) : [])]
    this.steps = steps.length > 0 ? steps : ['passive']
    this.stepMs = challenge.stepSeconds * 1000
  }

  /** The light's colours last this long, with the tail for the camera's delay. */
  private get lightMs(): number {
    return this.light.reduce((sum, period) => sum + period.ms, 0) + LIGHT_TAIL_MS
  }

  /** The colour the screen paints at `now` (the page's clock; each paint counts), or null outside the light. */
  paintLight(now: number): LightColour | null {
    if (this.status !== 'running' || this.steps[this.index] !== 'light') return null
    return this.lightShow.paint(now)
  }

  /** A step's time: the light's own length and some to spare, else the tenant's step time. */
  private timeFor(step: EvidenceStep): number {
    return step === 'light' ? Math.max(this.stepMs, this.lightMs + LIGHT_SPARE_MS) : this.stepMs
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
      prompt: stepPrompt(step),
      stepNumber: Math.min(this.index + 1, this.steps.length),
      stepCount: this.steps.length,
      secondsLeft: Math.max(0, Math.ceil((this.timeFor(step) - elapsed) / 1000)),
      hint: this.hint,
    }
  }

  update({ at, meshes }: Observation): RunUpdate {
    const out: RunUpdate = { grabs: [] }
    if (this.status !== 'running') return out
    const index = this.observed++
    this.now = at
    this.stepStartedAt ??= at
    const step = this.steps[this.index]!
    const faces = meshes.length
    const mesh = faces === 1 && meshes[0]!.length >= MESH_POINTS ? meshes[0]! : null
    this.hint = mesh ? null : faces > 1 ? t('guidance.onePerson') : t('guidance.noFace')

    if (mesh) this.openness = [...this.openness.slice(1 - OPEN_LEVEL_FRAMES), this.checks.frameSignals(mesh).openness]
    if (!mesh) this.restart()
    else if (step === 'passive') this.passive(at, out)
    else if (step === 'light') this.lit(at, out)
    else if (this.seen) this.after(step, { index, at, mesh }, out)
    else this.watch(step, { index, at, mesh })
    if (this.status === 'running' && at - this.stepStartedAt >= this.timeFor(step)) {
      // Out of time: the page sends what it has (at least one frame) and the services decide.
      if (this.grabbed === 0) {
        if (this.run.length > 0) this.send(step, out)
        else this.take(out, step, 0)
      }
      this.status = 'timed-out'
    }
    return out
  }

  private take(out: RunUpdate, step: EvidenceStep, back: number): void {
    if (this.grabbed >= MAX_EVIDENCE_FRAMES) return
    this.grabbed++
    out.grabs.push({ step, back })
  }

  /**
   * Sends the step's run, start first, as it was seen: evenly thinned to MAX_STEP_FRAMES when
   * longer, always with the frames the page decided on (where the move was seen, its deepest point),
   * so the engine judges the very frames the page passed.
   */
  private send(step: EvidenceStep, out: RunUpdate): void {
    const newest = this.observed - 1
    for (const at of this.picks(step)) this.take(out, step, newest - this.run[at]!.index)
  }

  /**
   * The run's frames to send (their places in the run): all of them, or MAX_STEP_FRAMES with its key
   * frames (start, end, where the move was seen, its deepest point), each further one in the middle
   * of the widest gap by the engine's own measures (the nose's or the eyes' change against
   * TURN_JUMP_MIN, the time against MAX_FRAME_GAP_MS). Spread evenly, a quick move followed by a hold
   * lost its frames in between and read as a cut.
   */
  private picks(step: EvidenceStep): number[] {
    const n = this.run.length
    if (n <= MAX_STEP_FRAMES) return this.run.map((_, i) => i)
    const leads = this.run.map((f) => (step === 'passive' || step === 'light' ? 0 : this.lead(step, f.mesh)))
    const picks = [...new Set([0, n - 1, this.seenAt, this.deepest])].sort((x, y) => x - y)
    const width = (i: number) => {
      const [a, b] = [picks[i]!, picks[i + 1]!]
      return b - a < 2 ? -1 : Math.max(Math.abs(leads[b]! - leads[a]!) / TURN_JUMP_MIN, (this.run[b]!.at - this.run[a]!.at) / MAX_FRAME_GAP_MS)
    }
    while (picks.length < MAX_STEP_FRAMES) {
      let wide = 0
      for (let i = 1; i < picks.length - 1; i++) if (width(i) > width(wide)) wide = i
      picks.splice(wide + 1, 0, Math.floor((picks[wide]! + picks[wide + 1]!) / 2))
    }
    return picks
  }

  /**
   * The frames to send pass the engine's own continuity rules on the page's measures: one sequence in
   * time (a stall of the busy page, or a thinning, is never sent) and, for a turn, a nose path with no
   * jump, judged with CONTINUITY_PAGE_MARGIN. A step done on screen is not refused for it: the person
   * moves again instead.
   */
  private continuous(step: ChallengeStep): boolean {
    const picks = this.picks(step).map((i) => this.run[i]!)
    if (!judgeTiming(picks.map((f) => ({ at: Math.round(f.at) })), step).passed) return false
    return step === 'blink' || judgeTurnPath(step, picks.map((f) => this.lead(step, f.mesh)), CONTINUITY_PAGE_MARGIN).passed
  }

  /** The face left the frame (or another joined): the run is broken, the step starts over. */
  private restart(): void {
    this.run = []
    this.seen = false
    this.farthest = 0
    this.seenAt = this.deepest = 0
    this.lowest = Infinity
  }

  /**
   * Before the move: a frame that makes a better start begins the run anew (so a step that begins
   * mid-move, or with the head still turned from the last step, is measured from where the person
   * comes back to); otherwise it joins the run and the move is judged from the start. The start stays
   * among the last WATCH_FRAMES frames, so a person who waits before moving still fits one run.
   */
  private watch(step: ChallengeStep, frame: Seen): void {
    const lead = this.lead(step, frame.mesh)
    if (this.run.length === 0 || lead < this.startLead) {
      this.run = [frame]
      this.startLead = lead
      return
    }
    this.run.push(frame)
    // Each frame is judged against the start alone (reopen: false: the eyes closing is enough here;
    // the run then goes on until they open).
    const margin = step === 'blink' ? BLINK_PAGE_MARGIN : PAGE_MARGIN
    const fromOpen = step !== 'blink' || -this.startLead >= BLINK_START_OPEN * Math.max(...this.openness)
    if (fromOpen && this.checks.judgeStep(step, [this.run[0]!.mesh, frame.mesh], { margin, reopen: false }).passed) {
      this.seen = true
      this.seenAt = this.deepest = this.run.length - 1
      this.farthest = this.shift(step, frame.mesh)
      this.lowest = this.checks.frameSignals(frame.mesh).openness
      return
    }
    if (this.run.length > WATCH_FRAMES) this.rewatch(step)
  }

  /** A start's lead: for a turn the nose toward the side asked, for a blink the eyes' openness negated. */
  private lead(step: ChallengeStep, mesh: Mesh): number {
    const { openness, parallax } = this.checks.frameSignals(mesh)
    return step === 'blink' ? -openness : turnSign(step) * parallax
  }

  /** How far a turn has gone from the start (0 for a blink). */
  private shift(step: ChallengeStep, mesh: Mesh): number {
    return step === 'blink' ? 0 : this.lead(step, mesh) - this.startLead
  }

  /**
   * After the move: every frame, until the move is undone. A move not undone within the frames the
   * loop keeps is too slow to send as one run, and a turn too small is not worth sending: the step
   * watches again from the latest frames.
   */
  private after(step: ChallengeStep, frame: Seen, out: RunUpdate): void {
    this.run.push(frame)
    let undone: boolean
    if (step === 'blink') {
      const openness = this.checks.frameSignals(frame.mesh).openness
      if (openness < this.lowest) [this.lowest, this.deepest] = [openness, this.run.length - 1]
      undone = openness >= REOPENED * -this.startLead
    } else {
      const shift = this.shift(step, frame.mesh)
      if (shift > this.farthest) [this.farthest, this.deepest] = [shift, this.run.length - 1]
      undone = this.farthest - shift >= Math.max(TURN_BACK_SHARE * this.farthest, TURN_BACK_MIN)
    }
    // A turn undone before it went clearly past the engine's marks is not sent: the engine measures
    // the JPEG a little short of the page, so a marginal turn would be refused. The person turns again.
    const marginal = step !== 'blink' && undone && !this.checks.judgeStep(step, [this.run[0]!.mesh, this.run[this.deepest]!.mesh], { margin: TURN_SEND_MARGIN, reopen: false }).passed
    if (undone && !marginal && this.continuous(step)) {
      this.send(step, out)
      this.next()
    } else if (undone || this.run.length >= FRAMES_KEPT) this.rewatch(step)
  }

  /** Watches for the move again, from the best start among the latest frames. */
  private rewatch(step: ChallengeStep): void {
    const recent = this.run.slice(-WATCH_FRAMES)
    const leads = recent.map((f) => this.lead(step, f.mesh))
    const best = leads.indexOf(Math.min(...leads))
    this.restart()
    this.run = recent.slice(best)
    this.startLead = leads[best]!
  }

  private passive(at: number, out: RunUpdate): void {
    if (at - this.lastPassiveAt < PASSIVE_GAP_MS) return
    this.lastPassiveAt = at
    this.passiveTaken++
    this.take(out, 'passive', 0)
    if (this.passiveTaken >= PASSIVE_FRAMES) this.next()
  }

  /**
   * The screen's light: from its first paint, a frame with the face every so often until the last
   * colour's time and the tail are over, spread so MAX_LIGHT_FRAMES cover it all; the engine judges
   * how the face's colour follows.
   */
  private lit(at: number, out: RunUpdate): void {
    const { startedAt, endsAt } = this.lightShow
    if (startedAt === null || at < startedAt) return
    const gap = this.lightMs / MAX_LIGHT_FRAMES
    if (at - this.lastLightAt >= gap && this.lightTaken < MAX_LIGHT_FRAMES) {
      this.lastLightAt = at
      this.lightTaken++
      this.take(out, 'light', 0)
    }
    if (endsAt !== null && at >= endsAt + LIGHT_TAIL_MS) this.next()
  }

  private next(): void {
    this.index++
    this.stepStartedAt = this.now
    this.restart()
    if (this.index >= this.steps.length) this.status = 'passed'
  }
}
