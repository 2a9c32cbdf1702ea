import { useEffect } from 'react'
import { NavBar } from './components/NavBar'
import { OfflineBanner } from './components/OfflineBanner'
import { StatusBar } from './components/StatusBar'
import { useIdleTimeout } from './components/useIdleTimeout'
import { screenComponents } from './screens'
import { useLive } from './store/live'
import { useNavigation } from './store/navigation'
import { useSession } from './store/session'
import { useStatus } from './store/status'

export function App() {
  const screen = useNavigation((s) => s.screen)
  const refresh = useStatus((s) => s.refresh)
  const follow = useLive((s) => s.follow)
  const idleSeconds = useLive((s) => s.settings?.idleTimeoutSeconds)
  const { generation, reset } = useSession()

  useEffect(() => {
    void refresh()
    const timer = setInterval(() => void refresh(), 3000)
    return () => clearInterval(timer)
  }, [refresh])
  useEffect(() => follow(), [follow])
  // Idle: back to Home, and every screen's visitor data is dropped with its component.
  useIdleTimeout(idleSeconds, reset)

  const Screen = screenComponents[screen]
  return (
    <div className="app">
      <NavBar />
      <OfflineBanner />
      <main className="content" aria-labelledby="screen-title">
        <Screen key={`${screen}-${generation}`} />
      </main>
      <StatusBar />
    </div>
  )
}
