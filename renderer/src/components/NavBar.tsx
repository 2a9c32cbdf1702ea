import { screens, useNavigation } from '../store/navigation'

export function NavBar() {
  const { screen, go } = useNavigation()
  return (
    <header className="navbar">
      <span className="brand">Identity Kiosk</span>
      <nav aria-label="Main">
        <ul>
          {screens.map((s) => (
            <li key={s.id} className={s.staff ? 'staff' : undefined}>
              <button type="button" aria-current={s.id === screen ? 'page' : undefined} onClick={() => go(s.id)}>
                {s.title}
              </button>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  )
}
