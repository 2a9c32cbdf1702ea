import { ScreenFrame } from './ScreenFrame'

export function PersonsScreen() {
  return <ScreenFrame title="Persons" purpose="This screen is being built." />
}
