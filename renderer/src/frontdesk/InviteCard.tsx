import type { Invite } from '@shared/invites'
import { QrCode } from './QrCode'
import './Badge.css'

const day = (date: string) => new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(new Date(`${date}T12:00:00`))

/**
 * The invitation staff print or send: who is invited, when, to see whom, and the code the visitor
 * shows to the kiosk's camera. Staff words (English), like the screen it is made on.
 */
export function InviteCard({ invite, token }: { invite: Invite; token: string }) {
  return (
    <article className="badge" aria-label={`Invitation for ${invite.email}`} data-testid="invite-card">
      <header className="badge-head">
        <p className="badge-kind">Invitation</p>
        <h2 className="badge-name">{invite.email}</h2>
      </header>
      <div>
        <dl className="badge-facts">
          <dt>Date</dt>
          <dd>{day(invite.date)}</dd>
          <dt>Host</dt>
          <dd>{invite.hostName ?? invite.hostId ?? 'Front desk'}</dd>
        </dl>
        <p>On the day, show this code to the kiosk’s camera: your details fill themselves in. It works once.</p>
      </div>
      <div className="badge-side">
        <QrCode className="badge-qr" text={token} label="Invitation code" />
      </div>
    </article>
  )
}
