import { useCallback, useEffect, useRef, useState, type RefObject } from 'react'
import { cameraLost, describeCameraError, listCameras, openCamera, stopStream, type CameraProblem } from './camera'
import { cameraSeen } from './report-camera'

export type CameraState = { kind: 'off' } | { kind: 'starting' } | { kind: 'running'; width: number; height: number } | { kind: 'error'; problem: CameraProblem }

export interface Camera {
  state: CameraState
  /** The cameras the computer has (a picker is worth showing when there are two or more). */
  cameras: MediaDeviceInfo[]
  /** The device in use: the one chosen, else the one the browser opened. */
  deviceId: string
  choose(deviceId: string | undefined): void
  /** Opens the camera again after an error ("Try again"). */
  retry(): void
  /** Stops the camera at once (privacy: the moment the photos are taken). */
  stop(): void
}

/**
 * The camera stream into `video` while `active`: opened for the chosen device, stopped on switch,
 * when no longer active and on unmount; an unplugged camera is reported as an error.
 */
export function useCamera(video: RefObject<HTMLVideoElement | null>, active: boolean): Camera {
  const streamRef = useRef<MediaStream | null>(null)
  const [state, setState] = useState<CameraState>({ kind: 'starting' })
  const [attempt, setAttempt] = useState(0)
  const [deviceId, setDeviceId] = useState<string | undefined>(undefined)
  const [cameras, setCameras] = useState<MediaDeviceInfo[]>([])

  const release = useCallback(() => {
    stopStream(streamRef.current)
    streamRef.current = null
    if (video.current) video.current.srcObject = null
  }, [video])

  useEffect(() => {
    if (!active) return
    let current = true
    setState({ kind: 'starting' })
    openCamera(deviceId)
      .then(async (stream) => {
        cameraSeen(true)
        if (!current) return stopStream(stream)
        streamRef.current = stream
        // Unplugged or taken over by another program (stop() by us does not fire this).
        stream.getVideoTracks()[0]?.addEventListener('ended', () => {
          if (current) setState({ kind: 'error', problem: cameraLost() })
        })
        const element = video.current
        if (!element) return stopStream(stream)
        element.srcObject = stream
        await element.play().catch(() => {})
        if (!element.videoWidth) await new Promise((resolve) => element.addEventListener('loadedmetadata', resolve, { once: true }))
        if (!current) return
        setState({ kind: 'running', width: element.videoWidth, height: element.videoHeight })
        setCameras(await listCameras().catch(() => []))
      })
      .catch((error: unknown) => {
        if (error instanceof DOMException && error.name === 'NotFoundError') cameraSeen(false)
        if (current) setState({ kind: 'error', problem: describeCameraError(error) })
      })
    return () => {
      current = false
      release()
    }
  }, [active, deviceId, attempt, release, video])

  // Cameras plugged in or out while the picker is shown.
  useEffect(() => {
    const devices = navigator.mediaDevices
    if (!devices?.addEventListener) return
    let current = true
    const refresh = () => void listCameras().then((list) => current && setCameras(list), () => {})
    devices.addEventListener('devicechange', refresh)
    return () => {
      current = false
      devices.removeEventListener('devicechange', refresh)
    }
  }, [])

  const stop = useCallback(() => {
    release()
    setState({ kind: 'off' })
  }, [release])

  return {
    state,
    cameras,
    deviceId: deviceId ?? streamRef.current?.getVideoTracks()[0]?.getSettings().deviceId ?? '',
    choose: setDeviceId,
    retry: useCallback(() => setAttempt((n) => n + 1), []),
    stop,
  }
}
