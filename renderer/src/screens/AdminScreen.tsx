import { ScreenFrame } from './ScreenFrame'

export function AdminScreen() {
  return <ScreenFrame title="Admin" purpose="This screen is being built." />
}
