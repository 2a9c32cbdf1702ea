import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { Busy, Button, CheckField, Field, Notice } from '../../components/ui'
import { useSession } from '../../store/session'
import { checkJoin, cleanCode, joinFailure, PAIRING_SOURCES, type JoinFailure, type JoinProblems } from './join-words'

/** What joining does, in plain words: shown on the first run and in Settings. */
export function JoinExplained() {
  return (
    <>
      <p>
        Joining makes this kiosk one of the site’s kiosks, and its front desk the site’s: staff accounts, the watchlist, visits and the evacuation list, hosts,
        invites, host notices, the organisation’s look and the visitor retention are the same at every one of its kiosks, and the site’s audit trail records what
        is done to them. An account made at any kiosk of the site signs in here, and a person on the site’s watchlist is watched for at each. This kiosk keeps its
        name, camera, display and idle time, and its own audit trail of what happens only on it. Faces are enrolled and checked on the site’s servers.
      </p>
      <p>The pairing code comes from the site: {PAIRING_SOURCES}. A code works once, for 15 minutes.</p>
    </>
  )
}

/**
 * The site's address, a pairing code and this kiosk's name (optional). The site's refusal (a
 * wrong, used or expired code; a site that cannot be reached) is shown here, the form kept as it
 * was typed, so the next try is one press away.
 */
export function JoinSiteForm({
  actions,
  onJoined,
  nameHint = 'How the site lists it, e.g. Main entrance. Left empty, it is named after this computer.',
  offerRecords = false,
}: {
  actions?: ReactNode
  onJoined?: () => void
  nameHint?: string
  /** An administrator of a kiosk that ran on its own may bring its records (a first-run kiosk has none). */
  offerRecords?: boolean
}) {
  const joinSite = useSession((s) => s.joinSite)
  const [bringRecords, setBringRecords] = useState(false)
  const form = useRef<HTMLFormElement>(null)
  const [problems, setProblems] = useState<JoinProblems>({})
  const [failure, setFailure] = useState<JoinFailure | null>(null)
  const [busy, setBusy] = useState(false)
  // The site is asked once per press: a second press (or Enter) while it answers does nothing.
  const submitting = useRef(false)
  // The field to correct after a refusal, focused once the form can be typed in again.
  const [refocus, setRefocus] = useState<keyof JoinProblems | null>(null)

  const focusField = (name: keyof JoinProblems) => {
    const field = form.current?.elements.namedItem(name)
    if (field instanceof HTMLInputElement) {
      field.focus()
      field.select()
    }
  }

  useEffect(() => {
    if (busy || refocus === null) return
    focusField(refocus)
    setRefocus(null)
  }, [busy, refocus])

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (submitting.current) return
    const data = new FormData(event.currentTarget)
    const url = String(data.get('url') ?? '').trim()
    const code = String(data.get('code') ?? '')
    const name = String(data.get('name') ?? '').trim()
    const found = checkJoin(url, code, name)
    setProblems(found)
    setFailure(null)
    const first = (['url', 'code', 'name'] as const).find((key) => found[key])
    if (first) {
      focusField(first)
      return
    }
    submitting.current = true
    setBusy(true)
    try {
      await joinSite({ url, code: cleanCode(code), ...(name ? { name } : {}), ...(offerRecords && bringRecords ? { bringRecords: true } : {}) })
      onJoined?.()
    } catch (caught) {
      const said = joinFailure(caught)
      setFailure(said)
      setRefocus(said.field)
    } finally {
      submitting.current = false
      setBusy(false)
    }
  }

  return (
    <form ref={form} className="join-site" onSubmit={(e) => void submit(e)} noValidate autoComplete="off">
      <fieldset className="plain-fieldset" disabled={busy}>
        <Field label="Site address" name="url" type="url" inputMode="url" autoComplete="off" autoCapitalize="off" spellCheck={false} hint="As the site printed it, e.g. https://site.example.com" error={problems.url ?? null} />
        <Field
          label="Pairing code"
          name="code"
          className="pairing-input"
          maxLength={32}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          hint="8 letters and digits, e.g. 7KQM 4TXP. Upper or lower case, spaces and dashes are all the same."
          error={problems.code ?? null}
        />
        <Field label="This kiosk’s name (optional)" name="name" maxLength={64} autoComplete="off" hint={nameHint} error={problems.name ?? null} />
        {offerRecords ? (
          <CheckField
            label="Bring this kiosk’s records to the site"
            hint="Its staff accounts, watchlist, hosts, visits and invites join the site’s, and invitations it printed keep working there. An account whose name the site already has is added disabled under a new name, shown once the kiosk has joined. Once the site has them, this kiosk keeps no copy; if joining fails, nothing changes here. Left unticked, they stay on this kiosk, unused while it is on the site."
            checked={bringRecords}
            onChange={setBringRecords}
          />
        ) : null}
      </fieldset>
      {failure ? (
        <Notice kind="error" title={failure.title}>
          {failure.detail ? <p data-testid="join-refusal">{failure.detail}</p> : null}
          <p>{failure.next}</p>
        </Notice>
      ) : null}
      <div className="actions">
        <Button type="submit" busy={busy}>
          Join the site
        </Button>
        {actions}
      </div>
      {busy ? <Busy label="Asking the site…" /> : null}
    </form>
  )
}
