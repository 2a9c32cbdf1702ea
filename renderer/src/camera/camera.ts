/** The camera: opening a stream, listing cameras, stopping, and saying in plain words what went wrong. */

export async function openCamera(deviceId?: string): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) {
    throw new DOMException('This window cannot use a camera.', 'NotSupportedError')
  }
  // 1280×720 where the camera has it: the photo is scaled to at most 1024 px anyway, and detection
  // runs on a smaller copy, so a larger frame costs little and gives the face more pixels.
  const video: MediaTrackConstraints = { width: { ideal: 1280 }, height: { ideal: 720 } }
  if (deviceId) video.deviceId = { exact: deviceId }
  else video.facingMode = 'user'
  return navigator.mediaDevices.getUserMedia({ audio: false, video })
}

/** Stops every track: the camera light goes off. */
export function stopStream(stream: MediaStream | null | undefined): void {
  stream?.getTracks().forEach((track) => track.stop())
}

export async function listCameras(): Promise<MediaDeviceInfo[]> {
  if (!navigator.mediaDevices?.enumerateDevices) return []
  return (await navigator.mediaDevices.enumerateDevices()).filter((device) => device.kind === 'videoinput')
}

export interface CameraProblem {
  title: string
  /** What happened and what to do next. */
  message: string
}

/** The camera stopped delivering pictures while in use. */
export const cameraLost: CameraProblem = {
  title: 'The camera stopped',
  message: 'The camera was disconnected or taken by another program. Reconnect it (or close the other program), then press “Try again”.',
}

export function describeCameraError(error: unknown): CameraProblem {
  const name = error instanceof DOMException || error instanceof Error ? error.name : ''
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return {
        title: 'Camera permission denied',
        message: 'The kiosk is not allowed to use the camera. Allow camera access for this app (in the browser’s site settings or the computer’s privacy settings), then press “Try again”.',
      }
    case 'NotFoundError':
    case 'OverconstrainedError':
      return { title: 'No camera found', message: 'No camera was found. Connect a camera (or choose another one), then press “Try again”.' }
    case 'NotReadableError':
    case 'AbortError':
      return { title: 'Camera busy', message: 'The camera could not be started: another program may be using it. Close that program, then press “Try again”.' }
    case 'NotSupportedError':
      return { title: 'No camera access', message: 'This window cannot use a camera. Open the kiosk from its own app or its launch link, then press “Try again”.' }
    default:
      return { title: 'Camera problem', message: 'The camera could not be started. Check that it is connected, then press “Try again”; if it keeps failing, ask staff.' }
  }
}
