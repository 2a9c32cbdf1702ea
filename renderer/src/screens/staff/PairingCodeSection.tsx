import { useEffect, useState } from 'react'
import type { PairingCodeResult } from '@shared/frontdesk-api'
import { kiosk } from '../../bridge/kiosk'
import { Button, ErrorNotice } from '../../components/ui'
import { formatDateTime } from './format'
import { useAction } from './hooks'

/** A code in groups of four, for reading off the screen ("7KQM 4TXP"). */
export const spacedCode = (code: string): string => code.replace(/(.{4})(?=.)/g, '$1 ')

/** True once `iso` has passed; re-renders at that moment. */
function usePassed(iso: string | null): boolean {
  const [now, setNow] = useState(() => Date.now())
  const at = iso === null ? null : Date.parse(iso)
  useEffect(() => {
    if (at === null || at <= Date.now()) return
    const timer = setTimeout(() => setNow(Date.now()), at - Date.now() + 50)
    return () => clearTimeout(timer)
  }, [at])
  return at !== null && at <= now
}

/** "Make a pairing code": the code large, spaced for reading, with when it stops working. */
export function PairingCodeSection({ siteUrl }: { siteUrl: string | null }) {
  const make = useAction()
  const [made, setMade] = useState<PairingCodeResult | null>(null)
  const expired = usePassed(made?.expiresAt ?? null)

  const makeCode = async () => {
    const outcome = await make.run(() => kiosk.createPairingCode({}))
    if (outcome.ok) setMade(outcome.value)
  }

  return (
    <section className="staff-section" aria-labelledby="kiosks-pair-title">
      <h2 id="kiosks-pair-title">Add a kiosk</h2>
      <p>
        At the new kiosk, choose “Join a site” on its first screen, then type the site’s address
        {siteUrl ? (
          <>
            {' '}
            (<span className="mono">{siteUrl}</span>)
          </>
        ) : null}{' '}
        and a pairing code made here. A code works once, for 15 minutes.
      </p>
      <div className="actions">
        <Button busy={make.busy} onClick={() => void makeCode()}>
          Make a pairing code
        </Button>
      </div>
      {make.error ? <ErrorNotice error={make.error} title="No pairing code was made" /> : null}
      {made ? (
        <div className="pairing-made" role="status">
          <p className="visually-hidden">Pairing code: {made.code.split('').join(' ')}.</p>
          <p className={expired ? 'pairing-code expired' : 'pairing-code'} data-testid="pairing-code" aria-hidden="true">
            {spacedCode(made.code)}
          </p>
          <p data-testid="pairing-expiry">
            {expired ? 'This code has expired: make a new one.' : `Works once, until ${formatDateTime(Date.parse(made.expiresAt))}.`}
          </p>
        </div>
      ) : (
        <p className="hint">A code can also be made on the site’s server: npm run site -- pair.</p>
      )}
    </section>
  )
}
