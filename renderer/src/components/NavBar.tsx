import { screens, useNavigation } from '../store/navigation'
import { useSession } from '../store/session'

export function NavBar() {
  const { screen, go } = useNavigation()
  const { staff, reset } = useSession()
  return (
    <header className="navbar">
      <span className="brand">Identity Kiosk</span>
      <nav aria-label="Main">
        <ul>
          {screens
            .filter((s) => staff || !s.staff)
            .map((s) => (
              <li key={s.id} className={s.staff ? 'staff' : undefined}>
                <button type="button" aria-current={s.id === screen ? 'page' : undefined} onClick={() => go(s.id)}>
                  {s.title}
                </button>
              </li>
            ))}
        </ul>
      </nav>
      {staff ? (
        <button type="button" className="leave-staff" onClick={reset}>
          Leave staff area
        </button>
      ) : null}
    </header>
  )
}
