import { useState } from 'react'
import { KioskError } from '@shared/errors'
import type { ListedKiosk } from '@shared/frontdesk-api'
import { kiosk } from '../bridge/kiosk'
import { DataTable } from '../components/DataTable'
import { Busy, Button, LoadError, Notice } from '../components/ui'
import { useLive } from '../store/live'
import { useNavigation } from '../store/navigation'
import { healthWords } from './kiosk-health-words'
import { ConfirmDialog } from './staff/controls'
import { formatDateTime, plural } from './staff/format'
import { useAction, useLoad } from './staff/hooks'
import { PairingCodeSection } from './staff/PairingCodeSection'
import { ScreenFrame } from './ScreenFrame'
import './staff/staff.css'

/** The site's kiosks (administrators only): which joined, when each was last heard from; pairing codes for more; removing one. */
export function KiosksScreen() {
  const mode = useLive((s) => s.settings?.mode ?? null)
  return (
    <ScreenFrame staff title="Kiosks" purpose="The kiosks of this kiosk’s site: when each joined and was last heard from, whether its copy of the site is up to date, how each is (its last report), pairing codes for new ones, and removing one.">
      {/* Settings not read yet: the site's answer tells (a kiosk not on a site is told NOT_CONFIGURED). */}
      {mode === null || mode === 'site' ? <SiteKiosks /> : <NotOnSite />}
    </ScreenFrame>
  )
}

function NotOnSite() {
  const go = useNavigation((s) => s.go)
  return (
    <section className="staff-section" aria-labelledby="kiosks-alone-title" data-testid="not-on-site">
      <h2 id="kiosks-alone-title">This kiosk is not on a site</h2>
      <p>It works on its own: its whole front desk (staff, watchlist, visits, hosts, invites, host notices and the organisation’s look) is its own, and there are no other kiosks to list.</p>
      <p>To make it one of a site’s kiosks, open Settings and use “Join a site”, with the site’s address and a pairing code from the site.</p>
      <div className="actions">
        <Button variant="secondary" onClick={() => go('settings')}>
          Open Settings
        </Button>
      </div>
    </section>
  )
}

/** How far a kiosk's copy (what it screens and prints the evacuation list from while the site is away) has come. */
function copyWords(k: ListedKiosk): string {
  if (k.copy === null) return 'Not copied yet'
  if (k.copy.changesBehind === 0) return `Up to date (${formatDateTime(k.copy.syncedAt)})`
  return `${plural(k.copy.changesBehind, 'change')} behind since ${formatDateTime(k.copy.syncedAt)}`
}

function SiteKiosks() {
  const kiosks = useLoad(() => kiosk.listKiosks({}))
  const siteUrl = useLive((s) => (s.settings?.mode === 'site' ? s.settings.personServerUrl : null))
  const remove = useAction()
  const [removing, setRemoving] = useState<ListedKiosk | null>(null)
  const [message, setMessage] = useState<string | null>(null)

  if (kiosks.error instanceof KioskError && kiosks.error.code === 'NOT_CONFIGURED') return <NotOnSite />

  const confirmRemove = async (target: ListedKiosk) => {
    setMessage(null)
    const outcome = await remove.run(() => kiosk.removeKiosk({ id: target.id }), target.id)
    if (!outcome.ok) return
    setRemoving(null)
    setMessage(`${target.name} was removed: the site refuses it from now on.`)
    await kiosks.reload()
    requestAnimationFrame(() => document.getElementById('kiosks-list-title')?.focus())
  }

  const list = kiosks.data
  return (
    <>
      <div className="staff-columns">
        <section className="staff-section" aria-labelledby="kiosks-list-title">
          <h2 id="kiosks-list-title" tabIndex={-1}>
            The site’s kiosks
          </h2>
          {kiosks.loading && !list ? <Busy label="Asking the site for its kiosks…" /> : null}
          {kiosks.error ? <LoadError error={kiosks.error} title="The kiosks could not be loaded" onRetry={() => void kiosks.reload()} /> : null}
          {list ? (
            <>
              <p className="hint" data-testid="kiosks-summary">
                {list.length === 0 ? 'No kiosk has joined yet.' : `${plural(list.length, 'kiosk')} on the site.`}
              </p>
              {list.length > 0 ? (
                <DataTable
                  caption="The site’s kiosks"
                  captionHidden
                  testId="kiosks"
                  rows={list}
                  rowKey={(k) => k.id}
                  columns={[
                    { header: 'Name', rowHeader: true, cell: (k) => (k.thisKiosk ? `${k.name} (this kiosk)` : k.name) },
                    { header: 'Joined', cell: (k) => formatDateTime(k.joinedAt) },
                    { header: 'Last seen', cell: (k) => (k.lastSeenAt === null ? 'Not since joining' : formatDateTime(k.lastSeenAt)) },
                    { header: 'Its copy of the site', cell: copyWords },
                    { header: 'Health', cell: (k) => healthWords(k.health, Date.now()) },
                    {
                      header: null,
                      actions: true,
                      cell: (k) => (
                        <Button variant="secondary" className="btn-small" aria-label={`Remove ${k.name}`} disabled={remove.busy} onClick={() => setRemoving(k)}>
                          Remove
                        </Button>
                      ),
                    },
                  ]}
                />
              ) : null}
            </>
          ) : null}
          {message ? <Notice kind="success">{message}</Notice> : null}
        </section>

        <PairingCodeSection siteUrl={siteUrl} />
      </div>

      {removing ? (
        <ConfirmDialog
          title={`Remove ${removing.name} from the site?`}
          confirmLabel="Remove kiosk"
          busy={remove.busy}
          error={remove.error}
          onCancel={() => {
            setRemoving(null)
            remove.clear()
          }}
          onConfirm={() => void confirmRemove(removing)}
        >
          <p>The site refuses {removing.name} at once: every call it makes from now on is turned away, its staff’s included.</p>
          {removing.thisKiosk ? <p>This is the kiosk you are using: this screen stops working with the site too, and joining again takes a new pairing code.</p> : null}
          <p>It is back on the site only once it joins again with a new pairing code.</p>
        </ConfirmDialog>
      ) : null}
    </>
  )
}
