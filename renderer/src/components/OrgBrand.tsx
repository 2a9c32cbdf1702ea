import { useEffect } from 'react'
import { defaultSettings } from '@shared/settings'
import { useLive } from '../store/live'
import './OrgBrand.css'

/**
 * The organisation's look on every screen, from the live store (read at start, then pushed on each
 * change). Until it is known, and with the default settings, the kiosk looks exactly as it always has.
 */

/** The accent as the stylesheet's --accent, on the page's root: every rule that uses it follows. */
function useAccent(accent: string | undefined) {
  useEffect(() => {
    const root = document.documentElement.style
    if (accent && accent !== defaultSettings.accentColour) root.setProperty('--accent', accent)
    else root.removeProperty('--accent')
  }, [accent])
}

/** The top bar's brand: the logo (the services' own PNG, never the uploaded file) and the organisation's name. */
export function OrgBrand() {
  const branding = useLive((s) => s.branding)
  useAccent(branding?.accentColour)
  const name = branding?.organisationName ?? defaultSettings.organisationName
  return (
    <span className="brand" data-testid="brand" title={name}>
      {/* Beside the name, the logo adds nothing to read: it is decorative. */}
      {branding?.logo ? <img className="brand-logo" src={branding.logo} alt="" /> : null}
      <span className="brand-name">{name}</span>
    </span>
  )
}

/** The organisation's welcome line under Home's heading; nothing when none is set. */
export function WelcomeLine() {
  const line = useLive((s) => s.branding?.welcomeLine)
  return line ? (
    <p className="welcome-line" data-testid="welcome-line">
      {line}
    </p>
  ) : null
}
