import { useEffect, useLayoutEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { roleAllows } from '@shared/staff'
import { kiosk } from './bridge/kiosk'
import { reportCamera } from './camera/report-camera'
import { NavBar } from './components/NavBar'
import { OfflineBanner } from './components/OfflineBanner'
import { StatusBar } from './components/StatusBar'
import { StillThereDialog } from './components/StillThereDialog'
import { useFocusableWhenScrolling } from './components/useFocusableWhenScrolling'
import { StaffAlerts } from './components/StaffAlerts'
import { DEFAULT_LANGUAGE } from './i18n'
import { useActivityPing, useIdleTimeout } from './components/useIdleTimeout'
import { screenComponents } from './screens'
import { FirstRunScreen } from './screens/FirstRunScreen'
import { HomeScreen } from './screens/HomeScreen'
import { useLive } from './store/live'
import { followBrowserHistory, screenRole, screenTitle, useNavigation } from './store/navigation'
import { useSession } from './store/session'

/** How often the session is read back: an expiry in the services (idle, a disabled account) shows soon. */
const SESSION_POLL_MS = 5000
/** Staff are at the screen: the services count this call as the session's activity. */
const keepSession = () => void kiosk.keepSession({}).catch(() => {})

export function App() {
  const { t, i18n } = useTranslation(['visitor', 'staff'])
  const screen = useNavigation((s) => s.screen)
  const follow = useLive((s) => s.follow)
  const { generation, reset, role, firstRun, idleTimeoutSeconds, load } = useSession()

  // One live picture, fed by pushed events; read again when the role changes what it may show.
  useEffect(() => follow(), [follow])
  const shownRole = useRef(role)
  useEffect(() => {
    if (shownRole.current === role) return
    shownRole.current = role
    useLive.getState().reload()
    if (role === 'visitor') useLive.setState({ siteSync: null })
    else useLive.getState().loadSiteSync()
  }, [role])
  useEffect(() => followBrowserHistory(), [])
  useEffect(() => reportCamera(), [])
  // getSession is a status read: it never keeps a staff session alive by itself.
  useEffect(() => {
    void load()
    const timer = setInterval(() => void load(), SESSION_POLL_MS)
    return () => clearInterval(timer)
  }, [load])
  const staff = role !== 'visitor'
  const allowed = roleAllows(role, screenRole(screen))
  // Idle: "Still there?" first; then signed out, back to Home, and every screen's visitor data is
  // dropped with its component. A visitor's Home has nothing to reset, so the clock does not run
  // there, unless a language was chosen: the next visitor starts in the kiosk's own.
  const somethingToReset = staff || firstRun || (allowed && screen !== 'home') || i18n.language !== DEFAULT_LANGUAGE
  const idle = useIdleTimeout(somethingToReset ? idleTimeoutSeconds : null, reset)
  // Staff typing or pointing make no call: tell the services they are still there, now and then.
  useActivityPing(staff, Math.max(5, Math.floor((idleTimeoutSeconds ?? 90) / 3)) * 1000, keepSession)

  const main = useRef<HTMLElement>(null)
  const mainTabIndex = useFocusableWhenScrolling(main)

  const Screen = firstRun ? FirstRunScreen : allowed ? screenComponents[screen] : HomeScreen
  const title = firstRun ? t('staff:screens.firstRun') : screenTitle(allowed ? screen : 'home')
  const screenKey = `${firstRun ? 'first-run' : allowed ? screen : 'home'}-${generation}`
  // The area that scrolls outlives its screens: each one opens at its top.
  useLayoutEffect(() => {
    main.current?.scrollTo(0, 0)
  }, [screenKey])
  useEffect(() => {
    document.title = `${title} — ${t('app.name')}`
  }, [title, t])
  return (
    <div className="app">
      <NavBar />
      <OfflineBanner />
      <StaffAlerts />
      <main ref={main} className="content" aria-labelledby="screen-title" tabIndex={mainTabIndex}>
        <Screen key={screenKey} />
      </main>
      <StatusBar />
      {idle.phase.kind === 'warning' ? <StillThereDialog secondsLeft={idle.phase.secondsLeft} onStillHere={idle.stillHere} /> : null}
    </div>
  )
}
