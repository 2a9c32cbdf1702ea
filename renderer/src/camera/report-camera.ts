import { kiosk } from '../bridge/kiosk'
import { listCameras } from './camera'

/**
 * Tells the services whether the browser lists a camera, now and whenever the devices change (a
 * camera unplugged), for the kiosk's health report to its site. Returns the function that stops it.
 */
export function reportCamera(): () => void {
  const report = () => void listCameras().then((cameras) => kiosk.reportCamera({ found: cameras.length > 0 })).catch(() => undefined)
  report()
  navigator.mediaDevices?.addEventListener?.('devicechange', report)
  return () => navigator.mediaDevices?.removeEventListener?.('devicechange', report)
}
