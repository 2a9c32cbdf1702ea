import { ScreenFrame } from './ScreenFrame'

export function VerifyScreen() {
  return <ScreenFrame title="Verify identity" purpose="This screen is being built." />
}
