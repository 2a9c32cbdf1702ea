import { ScreenFrame } from './ScreenFrame'

export function IdentifyScreen() {
  return <ScreenFrame title="Who is this?" purpose="This screen is being built." />
}
