import { ScreenFrame } from './ScreenFrame'

export function SettingsScreen() {
  return <ScreenFrame title="Settings" purpose="This screen is being built." />
}
