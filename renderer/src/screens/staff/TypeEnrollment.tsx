import { enrollmentWords } from './format'

/**
 * A visitor's enrollment per template type: each installed type (and any other they hold) with ✓
 * or ✗, so a type they lack shows before a template-type change leaves them unrecognised. Where
 * the servers could not say which types they hold, the server's single status is shown.
 */
export function TypeEnrollment({ held, status, types }: { held: string[] | null; status: string | null; types: readonly string[] }) {
  if (held === null) return <>{enrollmentWords(status)}</>
  if (held.length === 0) return <>Not enrolled</>
  const all = [...new Set([...types, ...held])]
  return (
    <ul className="type-enrollment" aria-label="Enrollment per template type">
      {all.map((type) => {
        const has = held.includes(type)
        return (
          <li key={type} className={has ? 'has-type' : 'lacks-type'}>
            {type} <span aria-hidden="true">{has ? '✓' : '✗'}</span>
            <span className="visually-hidden">{has ? ': enrolled' : ': not enrolled'}</span>
          </li>
        )
      })}
    </ul>
  )
}
