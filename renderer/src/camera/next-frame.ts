/**
 * Waiting for the camera's next frame in the quality loop. Judging the same frame twice wastes the
 * detector's time (most of a frame's work) and tells the steadiness check nothing, so the loop waits
 * for a new frame: requestVideoFrameCallback fires when the <video> presents one. Arm it *before*
 * the frame's work, so a frame that arrives during that work is judged straight after it.
 */
export interface FrameWait {
  /** Resolves once a frame newer than the arming arrived, or after the fallback time. */
  ready: Promise<void>
  cancel(): void
}

/**
 * Where requestVideoFrameCallback is missing, or the preview is not being painted (it then never
 * fires), the fallback time keeps the loop going as a plain timer did before.
 */
export function armNextFrame(video: HTMLVideoElement, fallbackMs: number): FrameWait {
  let cancel = () => {}
  const ready = new Promise<void>((resolve) => {
    const timer = setTimeout(done, fallbackMs)
    const handle = typeof video.requestVideoFrameCallback === 'function' ? video.requestVideoFrameCallback(() => done()) : null
    function done() {
      clearTimeout(timer)
      if (handle !== null) video.cancelVideoFrameCallback(handle)
      resolve()
    }
    cancel = done
  })
  return { ready, cancel }
}
