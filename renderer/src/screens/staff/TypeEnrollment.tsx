import { Fragment } from 'react'
import { useSession } from '../../store/session'
import { useTypeFocus } from '../../store/type-focus'
import { enrollmentWords } from './format'

/** A type's name, breakable only after its colon ("Face:" / "HumanFaceRes"), never inside a word. */
function TypeName({ type }: { type: string }) {
  const parts = type.split(/(?<=:)/)
  return (
    <span className="type-name">
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  )
}

/**
 * A visitor's enrollment in the template types that matter here: the kiosk's own (✓, or ✗ when they
 * lack it: they cannot be verified), and a type Settings is about to change to. Another type they
 * hold is listed neutrally; one they lack that the kiosk does not use is not a problem, and not
 * shown. Where the servers could not say which types they hold, the server's single status is shown.
 */
export function TypeEnrollment({ held, status, types }: { held: string[] | null; status: string | null; types: readonly string[] }) {
  const own = useSession((s) => s.templateType)
  const focus = useTypeFocus((s) => s.type)
  if (held === null) return <>{enrollmentWords(status)}</>
  if (held.length === 0) return <>Not enrolled</>
  const matters = [own, focus].filter((type): type is string => !!type && (types.includes(type) || held.includes(type) || type === own))
  const others = held.filter((type) => !matters.includes(type))
  return (
    <ul className="type-enrollment" aria-label="Enrollment per template type">
      {[...new Set(matters)].map((type) => {
        const has = held.includes(type)
        return (
          <li key={type} className={has ? 'has-type' : 'lacks-type'}>
            <TypeName type={type} /> <span aria-hidden="true">{has ? '✓' : '✗'}</span>
            <span className="visually-hidden">{has ? ': enrolled' : ': not enrolled'}</span>
          </li>
        )
      })}
      {others.map((type) => (
        <li key={type} className="other-type">
          <TypeName type={type} /> <span className="hint">(other type)</span>
          <span className="visually-hidden">: enrolled, not used by this kiosk</span>
        </li>
      ))}
    </ul>
  )
}
