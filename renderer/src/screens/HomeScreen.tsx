import { useNavigation, type ScreenId } from '../store/navigation'
import { useSession } from '../store/session'

const tasks: Array<{ id: ScreenId; title: string; hint: string }> = [
  { id: 'enroll', title: 'Enroll visitor', hint: 'Register a new face' },
  { id: 'verify', title: 'Verify identity', hint: 'Check a visitor against their record' },
  { id: 'identify', title: 'Who is this?', hint: 'Find a visitor by face' },
  { id: 'match', title: 'Face match', hint: 'Compare two photos' },
]

export function HomeScreen() {
  const go = useNavigation((s) => s.go)
  const enterStaff = useSession((s) => s.enterStaff)
  return (
    <section className="screen home">
      <h1 id="screen-title">Welcome</h1>
      <p className="purpose">What would you like to do?</p>
      <div className="tiles">
        {tasks.map((t) => (
          <button key={t.id} type="button" className="tile" onClick={() => go(t.id)}>
            <span className="tile-title">{t.title}</span>
            <span className="tile-hint">{t.hint}</span>
          </button>
        ))}
      </div>
      <button
        type="button"
        className="staff-entry"
        onClick={() => {
          enterStaff()
          go('persons')
        }}
      >
        Staff area
      </button>
    </section>
  )
}
