/**
 * Test harness for GuidedCapture (test/e2e/capture.spec.ts; also handy by hand in the dev server at
 * /capture-harness.html). It mounts the component on its own, without the kiosk bridge, and exposes
 * what a test needs on window.captureHarness. Query: ?count=N (photos to take, default 1);
 * &liveness=blink,turn-left,turn-right (a challenge in that order) or &liveness=passive, with
 * &stepSeconds=N, runs the liveness step after the photos with a challenge made here (no services);
 * &staff=1 offers the staff override.
 */
import { StrictMode, useState } from 'react'
import { createRoot } from 'react-dom/client'
import { challengeStepSchema, type LivenessChallenge } from '@shared/liveness'
import { GuidedCapture, type CapturedSample, type LivenessSend } from '../components/GuidedCapture'
import { loadFaceDetector } from './detector'
import { loopStats } from './stats'
import '../styles.css'

interface HarnessState {
  done: CapturedSample[][]
  /** What each completed capture would send about liveness (evidence frames, override, or nothing). */
  liveness: LivenessSend[]
  cancelled: number
  /** Every guidance text shown since the page loaded, in order: recorded here, so none is missed between a test's polls. */
  guidanceSeen: string[]
  /** Every camera stream the page opened, to check they were stopped. */
  streams: MediaStream[]
  stats: typeof loopStats
  /** Faces the in-app detector finds in an image (e.g. a captured sample's data: URL). */
  countFaces(url: string): Promise<number>
  liveTracks(): number
}

const state: HarnessState = {
  done: [],
  liveness: [],
  cancelled: 0,
  guidanceSeen: [],
  streams: [],
  stats: loopStats,
  async countFaces(url) {
    const image = new Image()
    image.src = url
    await image.decode()
    const canvas = document.createElement('canvas')
    canvas.width = image.naturalWidth
    canvas.height = image.naturalHeight
    canvas.getContext('2d')!.drawImage(image, 0, 0)
    return (await (await loadFaceDetector()).detect(canvas)).length
  },
  liveTracks: () => state.streams.flatMap((s) => s.getTracks()).filter((t) => t.readyState === 'live').length,
}
;(window as unknown as { captureHarness: HarnessState }).captureHarness = state

const devices = navigator.mediaDevices
if (devices?.getUserMedia) {
  const original = devices.getUserMedia.bind(devices)
  devices.getUserMedia = async (constraints) => {
    const stream = await original(constraints)
    state.streams.push(stream)
    return stream
  }
}

const query = new URLSearchParams(location.search)
const count = Number(query.get('count') ?? '1') || 1
const livenessQuery = query.get('liveness')
const staff = query.get('staff') === '1'

/** A challenge as the services would issue it, from the query (the harness has no services). */
function harnessChallenge(): Promise<LivenessChallenge> {
  const steps = (livenessQuery ?? '').split(',').filter((step) => challengeStepSchema.safeParse(step).success) as LivenessChallenge['steps']
  return Promise.resolve({
    required: true,
    challengeId: crypto.randomUUID(),
    checks: steps.length > 0 ? ['active-challenge'] : ['passive-pad'],
    light: [],
    steps,
    stepSeconds: Number(query.get('stepSeconds') ?? '8') || 8,
    expiresAt: Date.now() + 180_000,
  })
}

function Harness() {
  const [mounted, setMounted] = useState(true)
  const [taken, setTaken] = useState(0)
  return (
    <main className="content">
      <h1>Guided capture</h1>
      {mounted ? (
        <GuidedCapture
          count={count}
          label={`Take ${count} photo${count === 1 ? '' : 's'}`}
          liveness={livenessQuery ? harnessChallenge : undefined}
          livenessOverride={staff}
          onDone={(samples, liveness) => {
            state.done.push(samples)
            state.liveness.push(liveness)
            setTaken(samples.length)
          }}
          onCancel={() => {
            state.cancelled++
            setMounted(false)
          }}
        />
      ) : (
        <p>The capture was closed.</p>
      )}
      <p data-testid="harness-done">{taken ? `Done: ${taken}` : 'Not done'}</p>
      <button type="button" className="btn btn-secondary" onClick={() => setMounted((m) => !m)}>
        {mounted ? 'Unmount capture' : 'Mount capture'}
      </button>
    </main>
  )
}

const root = document.getElementById('root')
if (!root) throw new Error('capture-harness.html has no #root element')
new MutationObserver(() => {
  const text = root.querySelector('[data-testid="capture-guidance"]')?.textContent
  if (text !== undefined && text !== null && state.guidanceSeen.at(-1) !== text) state.guidanceSeen.push(text)
}).observe(root, { childList: true, characterData: true, subtree: true })
createRoot(root).render(
  <StrictMode>
    <Harness />
  </StrictMode>,
)
