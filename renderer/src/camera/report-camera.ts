import { kiosk } from '../bridge/kiosk'
import { listCameras } from './camera'

/**
 * What the screen knows of the camera, told to the services for the kiosk's health report to its
 * site (the services pass on a change at once). A camera that opened is found; a browser that has
 * none to open has none.
 */
export function cameraSeen(found: boolean): void {
  void kiosk.reportCamera({ found }).catch(() => undefined)
}

async function cameraAllowed(): Promise<boolean> {
  try {
    return (await navigator.permissions.query({ name: 'camera' as PermissionName })).state === 'granted'
  } catch {
    return false
  }
}

/**
 * Looks for a camera now and whenever the devices change (one unplugged). Before the camera is
 * allowed a browser may list none though one is plugged in, so an empty list counts only once it
 * is. Returns the function that stops looking.
 */
export function reportCamera(): () => void {
  const look = async () => {
    const cameras = await listCameras().catch(() => [])
    if (cameras.length > 0) cameraSeen(true)
    else if (await cameraAllowed()) cameraSeen(false)
  }
  void look()
  const changed = () => void look()
  navigator.mediaDevices?.addEventListener?.('devicechange', changed)
  return () => navigator.mediaDevices?.removeEventListener?.('devicechange', changed)
}
