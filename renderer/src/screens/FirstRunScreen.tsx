import { useEffect, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react'
import { accountName, accountSecret } from '@shared/staff'
import { Busy, Button, ErrorNotice, Field } from '../components/ui'
import { useLive } from '../store/live'
import { useNavigation } from '../store/navigation'
import { useSession } from '../store/session'
import { JoinExplained, JoinSiteForm } from './first-run/JoinSiteForm'

interface Problems {
  name?: string
  secret?: string
  confirm?: string
}

/** Checks the form as the services will (the same schemas), so most mistakes are named at once. */
export function checkNewAccount(name: string, secret: string, confirm: string): Problems {
  const problems: Problems = {}
  const parsedName = accountName.safeParse(name)
  if (!parsedName.success) problems.name = name.trim() === '' ? 'Enter a name.' : `The name must ${parsedName.error.issues[0]?.message ?? 'be valid'}.`
  const parsedSecret = accountSecret.safeParse(secret)
  if (!parsedSecret.success) problems.secret = secret === '' ? 'Enter a PIN or password.' : `The PIN or password must ${parsedSecret.error.issues[0]?.message ?? 'be valid'}.`
  else if (confirm !== secret) problems.confirm = 'The two entries differ: type the same PIN or password twice.'
  return problems
}

type Path = 'choose' | 'own' | 'join'

/**
 * The first launch: nobody can sign in yet. The kiosk is set up on its own (its first
 * administrator is created here) or joins a site, whose staff sign in next; a site with no staff
 * yet gets its first administrator here.
 */
export function FirstRunScreen() {
  const heading = useRef<HTMLHeadingElement>(null)
  const part = useRef<HTMLHeadingElement>(null)
  const [path, setPath] = useState<Path>('choose')
  const joinedSite = useSession((s) => s.joinedSite)
  // After a reload the page no longer knows it joined: the engine's status says the kiosk is on a site.
  const onSite = useLive((s) => s.engine?.mode === 'site')
  const site = joinedSite?.url ?? (onSite ? '' : null)

  useEffect(() => heading.current?.focus(), [])
  // A choice made (or undone): focus goes to what it opened, for a screen reader to read on from.
  const choose = (next: Path) => {
    setPath(next)
    requestAnimationFrame(() => (next === 'choose' ? heading.current : part.current)?.focus())
  }
  const back = (
    <Button variant="secondary" onClick={() => choose('choose')}>
      Back
    </Button>
  )

  return (
    <section className="screen first-run">
      <h1 id="screen-title" ref={heading} tabIndex={-1}>
        Set up the kiosk
      </h1>
      {site !== null ? (
        <Part title="Create the site’s first administrator" heading={part}>
          <p className="purpose">
            This kiosk is on the site{site ? ` at ${site}` : ''}, which has no staff yet. Create the site’s first administrator: they sign in at every kiosk of
            the site, add operators and other administrators, and make pairing codes for more kiosks.
          </p>
          <FirstAdminForm />
        </Part>
      ) : path === 'choose' ? (
        <>
          <p className="purpose">Nobody can sign in to this kiosk yet. Choose how it works: on its own, or as one of the kiosks of a site.</p>
          <div className="tiles first-run-choice">
            <button type="button" className="tile" onClick={() => choose('own')}>
              <span className="tile-title">Set up this kiosk on its own</span>
              <span className="tile-hint">It keeps its own front desk: staff, watchlist, visits, hosts and invites. You create its first administrator now.</span>
            </button>
            <button type="button" className="tile" onClick={() => choose('join')}>
              <span className="tile-title">Join a site</span>
              <span className="tile-hint">The front desk is the site’s: staff, watchlist, visits, hosts and invites, shared by all its kiosks. You need the site’s address and a pairing code.</span>
            </button>
          </div>
        </>
      ) : path === 'own' ? (
        <Part title="Set up this kiosk on its own" heading={part}>
          <p className="purpose">
            Create this kiosk’s first administrator: they sign in to the staff screens, add operators and other administrators, and set the kiosk up.
          </p>
          <FirstAdminForm actions={back} />
        </Part>
      ) : (
        <Part title="Join a site" heading={part}>
          <div className="join-layout">
            <div className="purpose">
              <JoinExplained />
            </div>
            <JoinSiteForm actions={back} />
          </div>
        </Part>
      )}
    </section>
  )
}

function Part({ title, heading, children }: { title: string; heading: RefObject<HTMLHeadingElement | null>; children: ReactNode }) {
  return (
    <section className="first-run-part" aria-labelledby="first-run-part-title">
      <h2 id="first-run-part-title" ref={heading} tabIndex={-1}>
        {title}
      </h2>
      {children}
    </section>
  )
}

/** The first administrator: of this kiosk, or of the site it joined (the services know which). */
function FirstAdminForm({ actions }: { actions?: ReactNode }) {
  const createFirstAdmin = useSession((s) => s.createFirstAdmin)
  const go = useNavigation((s) => s.go)
  const form = useRef<HTMLFormElement>(null)
  const [problems, setProblems] = useState<Problems>({})
  const [error, setError] = useState<unknown>(null)
  const [busy, setBusy] = useState(false)
  // The hashing takes seconds: a second press (or Enter) while it runs must not send it again.
  const submitting = useRef(false)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (submitting.current) return
    const data = new FormData(event.currentTarget)
    const name = String(data.get('name') ?? '')
    const secret = String(data.get('secret') ?? '')
    const confirm = String(data.get('confirm') ?? '')
    const found = checkNewAccount(name, secret, confirm)
    setProblems(found)
    setError(null)
    if (Object.keys(found).length > 0) return
    submitting.current = true
    setBusy(true)
    try {
      await createFirstAdmin(name.trim(), secret)
      form.current?.reset()
      useSession.getState().forgetJoined()
      go('accounts')
    } catch (caught) {
      setError(caught)
    } finally {
      submitting.current = false
      setBusy(false)
    }
  }

  return (
    <>
      {error ? <ErrorNotice error={error} title="The administrator was not created" /> : null}
      <form ref={form} onSubmit={(e) => void submit(e)} noValidate autoComplete="off">
        <fieldset className="plain-fieldset" disabled={busy}>
          <Field label="Administrator’s name" name="name" autoComplete="off" spellCheck={false} hint="2 to 64 letters, digits, spaces, dots, dashes or underscores." error={problems.name ?? null} />
          <Field label="PIN or password" name="secret" type="password" autoComplete="off" hint="At least 6 characters; a 6-digit PIN is the shortest accepted." error={problems.secret ?? null} />
          <Field label="Confirm PIN or password" name="confirm" type="password" autoComplete="off" error={problems.confirm ?? null} />
        </fieldset>
        <div className="actions">
          <Button type="submit" busy={busy}>
            Create administrator
          </Button>
          {actions}
        </div>
        {/* The PIN or password is made hard to guess, on purpose slowly: say so while it runs. */}
        {busy ? <Busy label="Creating the administrator… This takes a few seconds." /> : null}
      </form>
    </>
  )
}
