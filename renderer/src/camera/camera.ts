/** The camera: opening a stream, listing cameras, stopping, and saying in plain words what went wrong. */
import { t } from '../i18n'

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

type ProblemKey = 'stopped' | 'denied' | 'notFound' | 'busy' | 'noAccess' | 'other'
const problem = (key: ProblemKey): CameraProblem => ({ title: t(`cameraProblem.${key}Title`), message: t(`cameraProblem.${key}`) })

/** The camera stopped delivering pictures while in use. */
export const cameraLost = (): CameraProblem => problem('stopped')

export function describeCameraError(error: unknown): CameraProblem {
  const name = error instanceof DOMException || error instanceof Error ? error.name : ''
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return problem('denied')
    case 'NotFoundError':
    case 'OverconstrainedError':
      return problem('notFound')
    case 'NotReadableError':
    case 'AbortError':
      return problem('busy')
    case 'NotSupportedError':
      return problem('noAccess')
    default:
      return problem('other')
  }
}
