import { useTranslation } from 'react-i18next'
import { roleAllows } from '@shared/staff'
import { fromHomeOnly, screens, screenTitle, useNavigation } from '../store/navigation'
import { OrgBrand } from './OrgBrand'
import { roleWords, useSession } from '../store/session'

export function NavBar() {
  const { t } = useTranslation(['visitor', 'staff'])
  const { screen, go } = useNavigation()
  const { role, account, firstRun, reset } = useSession()
  // Until the first administrator exists there is nowhere to go but the set-up.
  const visible = firstRun ? [] : screens.filter((s) => roleAllows(role, s.role) && !fromHomeOnly.has(s.id))
  return (
    <header className="navbar">
      <OrgBrand />
      {visible.length > 0 ? (
        <nav aria-label={t('app.mainNav')}>
          <ul>
            {visible.map((s) => (
              <li key={s.id} className={s.role === 'visitor' ? undefined : 'staff'}>
                <button type="button" aria-current={s.id === screen ? 'page' : undefined} onClick={() => go(s.id)}>
                  {screenTitle(s.id)}
                </button>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {role !== 'visitor' && account ? (
        <div className="signed-in">
          <span data-testid="signed-in-as">
            {t('staff:nav.signedInAs', { account, role: roleWords[role] })}
          </span>
          <button type="button" className="leave-staff" onClick={reset}>
            {t('staff:nav.signOut')}
          </button>
        </div>
      ) : null}
    </header>
  )
}
