import { roleAllows } from '../../../electron/shared/staff'
import { screens, useNavigation } from '../store/navigation'
import { roleWords, useSession } from '../store/session'

export function NavBar() {
  const { screen, go } = useNavigation()
  const { role, account, firstRun, reset } = useSession()
  // Until the first administrator exists there is nowhere to go but the set-up.
  const visible = firstRun ? [] : screens.filter((s) => roleAllows(role, s.role))
  return (
    <header className="navbar">
      <span className="brand">Identity Kiosk</span>
      {visible.length > 0 ? (
        <nav aria-label="Main">
          <ul>
            {visible.map((s) => (
              <li key={s.id} className={s.role === 'visitor' ? undefined : 'staff'}>
                <button type="button" aria-current={s.id === screen ? 'page' : undefined} onClick={() => go(s.id)}>
                  {s.title}
                </button>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {role !== 'visitor' && account ? (
        <div className="signed-in">
          <span data-testid="signed-in-as">
            Signed in as {account} ({roleWords[role]})
          </span>
          <button type="button" className="leave-staff" onClick={reset}>
            Sign out
          </button>
        </div>
      ) : null}
    </header>
  )
}
