import { useEffect } from 'react'
import { NavBar } from './components/NavBar'
import { StatusBar } from './components/StatusBar'
import { HomeScreen } from './screens/HomeScreen'
import { ScreenFrame } from './screens/ScreenFrame'
import { screens, useNavigation } from './store/navigation'
import { useStatus } from './store/status'

/** What each screen will do; each arrives with its own issue and replaces its frame here. */
const purposes: Record<Exclude<(typeof screens)[number]['id'], 'home'>, string> = {
  enroll: 'Register a visitor: e-mail, consent, guided face capture, and enrollment.',
  verify: "Confirm a visitor is who they say they are, against their enrolled face.",
  identify: 'Find who a visitor is among everyone enrolled.',
  match: 'Compare two face images on the spot.',
  persons: 'Search, inspect and remove enrolled persons.',
  admin: 'Tenant, applications, algorithms, liveness and engine administration.',
  outbox: 'Enrollments queued while the server was unreachable.',
  settings: 'Server mode, addresses, credentials and thresholds.',
}

export function App() {
  const screen = useNavigation((s) => s.screen)
  const refresh = useStatus((s) => s.refresh)

  useEffect(() => {
    void refresh()
    const timer = setInterval(() => void refresh(), 3000)
    return () => clearInterval(timer)
  }, [refresh])

  const current = screens.find((s) => s.id === screen) ?? screens[0]
  return (
    <div className="app">
      <NavBar />
      <main className="content" aria-labelledby="screen-title">
        {current.id === 'home' ? <HomeScreen /> : <ScreenFrame title={current.title} purpose={purposes[current.id]} />}
      </main>
      <StatusBar />
    </div>
  )
}
