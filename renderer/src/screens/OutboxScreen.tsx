import { ScreenFrame } from './ScreenFrame'

export function OutboxScreen() {
  return <ScreenFrame title="Outbox" purpose="This screen is being built." />
}
