import { ScreenFrame } from './ScreenFrame'

export function FaceMatchScreen() {
  return <ScreenFrame title="Face match" purpose="This screen is being built." />
}
