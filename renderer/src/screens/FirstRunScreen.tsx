import { useEffect, useRef, useState, type FormEvent } from 'react'
import { accountName, accountSecret } from '@shared/staff'
import { Busy, Button, ErrorNotice, Field } from '../components/ui'
import { useNavigation } from '../store/navigation'
import { useSession } from '../store/session'

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

/** The first launch: nobody can sign in yet, so the kiosk asks for its first administrator. */
export function FirstRunScreen() {
  const createFirstAdmin = useSession((s) => s.createFirstAdmin)
  const go = useNavigation((s) => s.go)
  const form = useRef<HTMLFormElement>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const [problems, setProblems] = useState<Problems>({})
  const [error, setError] = useState<unknown>(null)
  const [busy, setBusy] = useState(false)
  // The hashing takes seconds: a second press (or Enter) while it runs must not send it again.
  const submitting = useRef(false)

  useEffect(() => heading.current?.focus(), [])

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
      go('accounts')
    } catch (caught) {
      setError(caught)
    } finally {
      submitting.current = false
      setBusy(false)
    }
  }

  return (
    <section className="screen first-run">
      <h1 id="screen-title" ref={heading} tabIndex={-1}>
        Set up the kiosk
      </h1>
      <p className="purpose">
        Nobody can sign in to this kiosk yet. Create its first administrator: they sign in to the staff screens, add operators and other administrators, and
        set the kiosk up.
      </p>
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
        </div>
        {/* The PIN or password is made hard to guess, on purpose slowly: say so while it runs. */}
        {busy ? <Busy label="Creating the administrator… This takes a few seconds." /> : null}
      </form>
    </section>
  )
}
