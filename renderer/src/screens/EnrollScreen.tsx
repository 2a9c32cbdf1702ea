import { ScreenFrame } from './ScreenFrame'

export function EnrollScreen() {
  return <ScreenFrame title="Enroll visitor" purpose="This screen is being built." />
}
