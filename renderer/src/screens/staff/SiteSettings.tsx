import type { KioskSettings } from '@shared/settings'
import { JoinExplained, JoinSiteForm } from '../first-run/JoinSiteForm'

/** Settings on a site: which site, under which name, and what the site keeps. The servers were set by pairing. */
export function SiteFacts({ settings }: { settings: KioskSettings }) {
  return (
    <div data-testid="site-facts">
      <p>
        On the site <span className="mono">{settings.personServerUrl}</span> as <strong>{settings.kioskName || 'this kiosk'}</strong>.
      </p>
      <p className="hint">
        Staff accounts, the watchlist, visits and the evacuation list, hosts, invites, host notices (their e-mail and webhook settings), the organisation’s look
        (name, welcome line, accent colour, logo) and the visitor retention are kept by the site, the same at every one of its kiosks: changed here, they change at
        every kiosk, and the site’s audit trail records it. Faces are enrolled and checked on its servers (tenant {settings.tenantCode}). The site’s address,
        tenant and this kiosk’s credential were set when it joined. This kiosk keeps its own name, camera, display and idle time, an audit
        trail of what happens only on it, and copies of what it needs while the site cannot be reached.
      </p>
    </div>
  )
}

/** An administrator joins a kiosk that ran on its own (or on a vendor's servers) to a site. */
export function JoinSiteSection({ onJoined }: { onJoined: () => void }) {
  return (
    <section className="staff-section" aria-labelledby="join-site-title">
      <h2 id="join-site-title">Join a site</h2>
      <JoinExplained />
      <p>Once it joins, staff sign in here with the site’s accounts.</p>
      <JoinSiteForm
        onJoined={onJoined}
        offerRecords
        nameHint="How the site lists it, e.g. Main entrance. Left empty: the kiosk name under Kiosk above, else this computer’s name."
      />
    </section>
  )
}
