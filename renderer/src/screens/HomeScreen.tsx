import { useEffect, useRef, useState } from 'react'
import { roleAllows } from '../../../electron/shared/staff'
import { WelcomeLine } from '../components/OrgBrand'
import { StaffSignIn } from '../components/StaffSignIn'
import { Notice } from '../components/ui'
import { readinessOf, useLive } from '../store/live'
import { screenRole, useNavigation, type ScreenId } from '../store/navigation'
import { useSession } from '../store/session'

const tasks: Array<{ id: ScreenId; title: string; hint: string }> = [
  { id: 'enroll', title: 'Enroll visitor', hint: 'Register a new face' },
  { id: 'verify', title: 'Verify identity', hint: 'Check a visitor against their record' },
  { id: 'identify', title: 'Who is this?', hint: 'Find a visitor by face' },
  { id: 'match', title: 'Face match', hint: 'Compare two photos' },
]

export function HomeScreen() {
  const go = useNavigation((s) => s.go)
  const role = useSession((s) => s.role)
  const [signingIn, setSigningIn] = useState(false)
  const entry = useRef<HTMLButtonElement>(null)
  const cancelled = useRef(false)
  // Until the kiosk's engine runs, every task would fail: say so instead of offering them.
  const readiness = readinessOf(useLive((s) => s.engine))
  const ready = readiness === 'ready'
  // Back from a cancelled sign-in: focus returns to the button that opened it.
  useEffect(() => {
    if (!signingIn && cancelled.current) {
      cancelled.current = false
      entry.current?.focus()
    }
  }, [signingIn])
  return (
    <section className="screen home">
      <h1 id="screen-title">Welcome</h1>
      <WelcomeLine />
      <p className="purpose">What would you like to do?</p>
      {readiness === 'failed' ? (
        <Notice kind="error" title="Out of service">
          <span data-testid="home-readiness">The kiosk cannot serve visitors right now. Please ask staff for help.</span>
        </Notice>
      ) : !ready ? (
        <Notice kind="info" title="Getting ready…">
          <span data-testid="home-readiness">The kiosk is starting. The buttons below work in a moment.</span>
        </Notice>
      ) : null}
      <div className="tiles" aria-busy={!ready || undefined}>
        {tasks
          .filter((t) => roleAllows(role, screenRole(t.id)))
          .map((t) => (
            <button key={t.id} type="button" className="tile" disabled={!ready} onClick={() => go(t.id)}>
              <span className="tile-title">{t.title}</span>
              <span className="tile-hint">{t.hint}</span>
            </button>
          ))}
      </div>
      {role === 'visitor' ? (
        signingIn ? (
          <StaffSignIn
            onSignedIn={() => go('persons')}
            onCancel={() => {
              cancelled.current = true
              setSigningIn(false)
            }}
          />
        ) : (
          <button ref={entry} type="button" className="staff-entry" onClick={() => setSigningIn(true)}>
            Staff sign-in
          </button>
        )
      ) : null}
    </section>
  )
}
