import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { roleAllows } from '@shared/staff'
import { LanguageChoice } from '../components/LanguageChoice'
import { WelcomeLine } from '../components/OrgBrand'
import { StaffSignIn } from '../components/StaffSignIn'
import { Notice } from '../components/ui'
import { readinessOf, useLive } from '../store/live'
import { screenRole, screenTitle, useNavigation, type ScreenId } from '../store/navigation'
import { useSession } from '../store/session'

const tasks = ['enroll', 'checkIn', 'checkOut', 'verify', 'identify', 'match'] as const satisfies ScreenId[]

export function HomeScreen() {
  const { t } = useTranslation(['visitor', 'staff'])
  const hints: Record<(typeof tasks)[number], string> = {
    enroll: t('home.enrollHint'),
    checkIn: t('home.checkInHint'),
    checkOut: t('home.checkOutHint'),
    verify: t('home.verifyHint'),
    identify: t('staff:home.identifyHint'),
    match: t('staff:home.matchHint'),
  }
  const go = useNavigation((s) => s.go)
  const role = useSession((s) => s.role)
  // Just joined a site: its staff sign in next, so the sign-in is open (whenever the join's answer lands).
  const joinedSite = useSession((s) => s.joinedSite)
  const forgetJoined = useSession((s) => s.forgetJoined)
  const [signInChosen, setSigningIn] = useState(false)
  const signingIn = signInChosen || joinedSite !== null
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
      <h1 id="screen-title">{t('home.welcome')}</h1>
      <WelcomeLine />
      <p className="purpose">{t('home.purpose')}</p>
      <LanguageChoice />
      {readiness === 'failed' ? (
        <Notice kind="error" title={t('home.outOfServiceTitle')}>
          <span data-testid="home-readiness">{t('home.outOfService')}</span>
        </Notice>
      ) : !ready ? (
        <Notice kind="info" title={t('home.gettingReadyTitle')}>
          <span data-testid="home-readiness">{t('home.gettingReady')}</span>
        </Notice>
      ) : null}
      <div className="tiles" aria-busy={!ready || undefined}>
        {tasks
          .filter((id) => roleAllows(role, screenRole(id)))
          .map((id) => (
            <button key={id} type="button" className="tile" disabled={!ready} onClick={() => go(id)}>
              <span className="tile-title">{screenTitle(id)}</span>
              <span className="tile-hint">{hints[id]}</span>
            </button>
          ))}
      </div>
      {role === 'visitor' ? (
        signingIn ? (
          <StaffSignIn
            joinedSite={joinedSite}
            onSignedIn={() => {
              forgetJoined()
              go('persons')
            }}
            onCancel={() => {
              forgetJoined()
              cancelled.current = true
              setSigningIn(false)
            }}
          />
        ) : (
          <button ref={entry} type="button" className="staff-entry" onClick={() => setSigningIn(true)}>
            {t('home.staffSignIn')}
          </button>
        )
      ) : null}
    </section>
  )
}
