import { useEffect, useRef, useState, type FormEvent } from 'react'
import type { Invite, InviteState } from '@shared/invites'
import { kiosk } from '../bridge/kiosk'
import { DataTable } from '../components/DataTable'
import { Busy, Button, ErrorNotice, Field, LoadError, Notice } from '../components/ui'
import { InviteCard } from '../frontdesk/InviteCard'
import { DEFAULT_LANGUAGE, languages, type LanguageCode } from '../i18n'
import { formatVisitDay } from '../i18n/dates'
import { PrintCard } from '../frontdesk/PrintCard'
import { printPage } from '../frontdesk/print'
import { SelectField } from './staff/controls'
import { fieldErrorsOf, formatDateTime, plural } from './staff/format'
import { useAction, useLoad } from './staff/hooks'
import { ScreenFrame } from './ScreenFrame'
import './staff/staff.css'

const stateWords: Record<InviteState, string> = { open: 'Open', used: 'Used', revoked: 'Revoked', expired: 'Expired' }

/** Today in the kiosk's time zone, as an <input type="date"> value. */
function today(): string {
  const now = new Date()
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`
}

/** Staff pre-register visitors: an invite with a QR code the visitor shows to the kiosk on the day; the list, and revoking. */
export function InvitesScreen() {
  const invites = useLoad(() => kiosk.listInvites({}))
  // The host is picked from the directory, so an invite never names a host that is not in it.
  const hosts = useLoad(() => kiosk.listHosts({}))
  const create = useAction()
  const revoke = useAction()
  const [email, setEmail] = useState('')
  const [hostId, setHostId] = useState('')
  const [date, setDate] = useState(today)
  // The card is printed only now (its code is not shown again): its language goes with it, not with the invite's record.
  const [language, setLanguage] = useState<LanguageCode>(DEFAULT_LANGUAGE)
  const [made, setMade] = useState<{ invite: Invite; token: string; language: LanguageCode } | null>(null)
  // The new card and its Print button come below the form, out of sight on a short display: brought into view.
  const madeSection = useRef<HTMLElement>(null)
  useEffect(() => {
    if (made) madeSection.current?.scrollIntoView({ block: 'nearest' })
  }, [made])
  const [message, setMessage] = useState<string | null>(null)
  const problems = fieldErrorsOf(create.error, ['email', 'hostId', 'date'] as const)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    setMessage(null)
    setMade(null)
    const outcome = await create.run(() => kiosk.createInvite({ email: email.trim(), hostId: hostId || null, date }))
    if (!outcome.ok) return
    setMade({ ...outcome.value, language })
    setEmail('')
    setHostId('')
    await invites.reload()
  }

  const revokeOne = async (invite: Invite) => {
    setMessage(null)
    const outcome = await revoke.run(() => kiosk.revokeInvite({ id: invite.id }), invite.id)
    if (!outcome.ok) return
    if (made?.invite.id === invite.id) setMade(null)
    setMessage(`The invite for ${invite.email} is revoked: its code is refused from now on.`)
    await invites.reload()
  }

  const list = invites.data?.invites
  return (
    <ScreenFrame staff title="Invites" purpose="Pre-register a visitor: they show the invite’s QR code to the kiosk’s camera on the day, and the form fills itself.">
      <div className="staff-columns">
        <section className="staff-section" aria-labelledby="invite-new-title">
          <h2 id="invite-new-title">Invite a visitor</h2>
          <form onSubmit={(e) => void submit(e)} noValidate autoComplete="off">
            <Field label="Visitor’s e-mail" type="email" value={email} onChange={(e) => setEmail(e.target.value)} error={problems?.fields.email ?? null} />
            <SelectField
              label="Host"
              value={hostId}
              onChange={(e) => setHostId(e.target.value)}
              options={[{ value: '', label: 'Nobody: the front desk' }, ...(hosts.data ?? []).map((h) => ({ value: h.id, label: h.email ? `${h.name} (${h.email})` : h.name }))]}
              hint={hosts.error ? 'The hosts directory could not be loaded: the invite can only name the front desk for now.' : 'From the hosts directory (Visits screen); they are told when the visitor arrives.'}
              error={problems?.fields.hostId ?? null}
              data-testid="invite-host"
            />
            <Field
              label="Visit date"
              type="date"
              value={date}
              min={today()}
              onChange={(e) => setDate(e.target.value)}
              hint={`${date ? `${formatVisitDay(date, 'en')}. ` : ''}The code works on this day only, once.`}
              error={problems?.fields.date ?? null}
            />
            <SelectField
              label="Language of the invitation"
              value={language}
              onChange={(e) => setLanguage(e.target.value as LanguageCode)}
              options={languages.map((l) => ({ value: l.code, label: l.name }))}
              hint="The card is printed in it: the visitor reads it before they arrive."
              data-testid="invite-language"
            />
            <div className="actions">
              <Button type="submit" busy={create.busy}>
                Create invite
              </Button>
            </div>
          </form>
          {create.error && !problems ? <ErrorNotice error={create.error} title="The invite was not created" /> : null}
          {made ? (
            <section ref={madeSection} aria-labelledby="invite-made-title">
              <h3 id="invite-made-title">Invite created for {made.invite.email}</h3>
              <p className="hint">Print it or show it to the visitor now: the code is not shown again.</p>
              <PrintCard>
                <InviteCard invite={made.invite} token={made.token} language={made.language} />
              </PrintCard>
              <div className="actions">
                <Button onClick={() => void printPage()}>Print the invitation</Button>
              </div>
            </section>
          ) : null}
        </section>

        <section className="staff-section" aria-labelledby="invite-list-title">
          <h2 id="invite-list-title">Invites</h2>
          {invites.loading && !list ? <Busy label="Loading the invites…" /> : null}
          {invites.error ? <LoadError error={invites.error} title="The invites could not be loaded" onRetry={() => void invites.reload()} /> : null}
          {list ? (
            <>
              <p className="hint" data-testid="invites-summary">
                {plural(list.length, 'invite')}, {plural(list.filter((i) => i.state === 'open').length, 'open invite')}
                {invites.data?.truncated ? ' (the newest shown)' : ''}.
              </p>
              <DataTable
                caption="Invites"
                captionHidden
                testId="invites"
                rows={list}
                rowKey={(invite) => invite.id}
                columns={[
                  { header: 'E-mail', rowHeader: true, cell: (invite) => invite.email },
                  { header: 'Date', cell: (invite) => formatVisitDay(invite.date, 'en') },
                  { header: 'Host', cell: (invite) => invite.hostName ?? invite.hostId ?? 'Front desk' },
                  { header: 'State', cell: (invite) => stateWords[invite.state] },
                  { header: 'Created', cell: (invite) => `${formatDateTime(invite.createdAt)}${invite.createdBy ? ` by ${invite.createdBy}` : ''}` },
                  {
                    header: null,
                    actions: true,
                    cell: (invite) =>
                      invite.state === 'open' ? (
                        <Button variant="secondary" className="btn-small" aria-label={`Revoke the invite for ${invite.email}`} busy={revoke.busyKey === invite.id} disabled={revoke.busy} onClick={() => void revokeOne(invite)}>
                          Revoke
                        </Button>
                      ) : null,
                  },
                ]}
              />
            </>
          ) : null}
          {revoke.error ? <ErrorNotice error={revoke.error} title="The invite was not revoked" /> : null}
          {message ? <Notice kind="success">{message}</Notice> : null}
        </section>
      </div>
    </ScreenFrame>
  )
}
