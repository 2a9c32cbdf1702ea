import { useEffect, useRef, useState, type FormEvent } from 'react'
import { KioskError } from '@shared/errors'
import { useSession, type JoinedSite } from '../store/session'
import { Button, Field, Notice, visitorMessage } from './ui'

/** What to say when a sign-in fails: the services' own words where they speak to the person. */
function signInFailure(error: unknown): string {
  if (error instanceof KioskError) {
    if (error.code === 'UNAUTHORIZED' || error.code === 'TOO_MANY_ATTEMPTS') return error.message
    // A name the services cannot accept matches no account either.
    if (error.code === 'INVALID_INPUT') return 'That name and PIN or password do not match an active staff account.'
  }
  // Whoever signs in is not signed in yet: the visitor's plain words, never internal text.
  return visitorMessage(error)
}

/**
 * Staff sign-in: name and PIN or password, checked by the services. The inputs are uncontrolled
 * and emptied after each try, so a typed secret never lingers in the page's state.
 */
export function StaffSignIn({ onSignedIn, onCancel, joinedSite = null }: { onSignedIn: () => void; onCancel: () => void; joinedSite?: JoinedSite | null }) {
  const signIn = useSession((s) => s.signIn)
  const form = useRef<HTMLFormElement>(null)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const [missing, setMissing] = useState<{ name?: string; secret?: string }>({})
  // Too many failed tries: the services' wait, counted down here; the form takes no try until it is over.
  const [waitUntil, setWaitUntil] = useState<number | null>(null)
  const [, tick] = useState(0)
  useEffect(() => {
    if (waitUntil === null) return
    const timer = setInterval(() => {
      if (Date.now() >= waitUntil) {
        setWaitUntil(null)
        setFailure(null)
      } else tick((n) => n + 1)
    }, 250)
    return () => clearInterval(timer)
  }, [waitUntil])
  const secondsLeft = waitUntil === null ? 0 : Math.max(1, Math.ceil((waitUntil - Date.now()) / 1000))

  useEffect(() => {
    const name = form.current?.elements.namedItem('name')
    if (name instanceof HTMLInputElement) name.focus()
  }, [])

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const data = new FormData(event.currentTarget)
    const name = String(data.get('name') ?? '').trim()
    const secret = String(data.get('secret') ?? '')
    const empty = { ...(name ? {} : { name: 'Enter your name.' }), ...(secret ? {} : { secret: 'Enter your PIN or password.' }) }
    setMissing(empty)
    setFailure(null)
    if (empty.name || empty.secret) return
    setBusy(true)
    try {
      await signIn(name, secret)
      onSignedIn()
    } catch (error) {
      setFailure(signInFailure(error))
      const wait = error instanceof KioskError && error.code === 'TOO_MANY_ATTEMPTS' ? error.retryAfterSeconds : undefined
      setWaitUntil(wait ? Date.now() + wait * 1000 : null)
      const secretInput = form.current?.elements.namedItem('secret')
      if (secretInput instanceof HTMLInputElement) {
        secretInput.value = ''
        secretInput.focus()
      }
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="sign-in" aria-labelledby="sign-in-title">
      <h2 id="sign-in-title">Staff sign-in</h2>
      {joinedSite ? (
        <Notice kind="success" title="This kiosk joined the site">
          <p data-testid="joined-site">
            It is {joinedSite.name} on the site at {joinedSite.url}. Its staff are the site’s: sign in with an account of the site.
          </p>
          {joinedSite.broughtRecords ? <p>Its staff accounts, watchlist, hosts, visits and invites are the site’s now; this kiosk keeps no copy of them.</p> : null}
        </Notice>
      ) : null}
      {joinedSite?.keptApart?.length ? (
        <Notice kind="warning" title="Accounts kept apart">
          <p>The site already has staff, so this kiosk’s accounts were added disabled (under a new name where the site had the name): an administrator of the site enables the ones to keep.</p>
          <ul data-testid="kept-apart">
            {joinedSite.keptApart.map((account) => (
              <li key={account.importedAs}>
                {account.importedAs === account.name ? <strong>{account.name}</strong> : <>{account.name} → <strong>{account.importedAs}</strong></>}
              </li>
            ))}
          </ul>
        </Notice>
      ) : null}
      <form ref={form} onSubmit={(e) => void submit(e)} noValidate autoComplete="off">
        <Field label="Name" name="name" autoComplete="off" autoCapitalize="off" spellCheck={false} error={missing.name ?? null} />
        <Field label="PIN or password" name="secret" type="password" autoComplete="off" error={missing.secret ?? null} />
        {failure ? (
          <p className="field-error sign-in-error" role="alert">
            {waitUntil === null ? failure : `Too many failed sign-ins. Try again in ${secondsLeft} second${secondsLeft === 1 ? '' : 's'}.`}
          </p>
        ) : null}
        <div className="actions">
          <Button type="submit" busy={busy} disabled={waitUntil !== null}>
            Sign in
          </Button>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </section>
  )
}
