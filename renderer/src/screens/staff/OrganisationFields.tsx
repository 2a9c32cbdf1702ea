import { useId, useState, type ChangeEvent } from 'react'
import { LOGO_MAX_BYTES } from '@shared/branding'
import { accentPairs, accentRefusal, contrastRatio, formatRatio, isHexColour } from '@shared/contrast'
import { kiosk } from '../../bridge/kiosk'
import { Button, Field, FieldFrame, Notice, describeError } from '../../components/ui'
import { useLive } from '../../store/live'
import { useAction } from './hooks'
import './OrganisationFields.css'

type OrganisationKey = 'organisationName' | 'welcomeLine' | 'accentColour'

/**
 * The organisation's look, in the settings form: name, welcome line and accent are saved with the
 * other settings; the logo is stored at once by its own buttons (the services sanitise it).
 */
export function OrganisationFieldset({
  value,
  onChange,
  errorOf,
}: {
  value: Record<OrganisationKey, string>
  onChange: (key: OrganisationKey, value: string) => void
  errorOf: (key: OrganisationKey) => string | undefined
}) {
  return (
    <fieldset className="staff-fieldset">
      <legend>Organisation</legend>
      <Field label="Organisation name" value={value.organisationName} onChange={(e) => onChange('organisationName', e.target.value)} hint="Up to 60 characters, in the top bar of every screen." error={errorOf('organisationName')} maxLength={60} autoComplete="organization" />
      <Field label="Welcome line" value={value.welcomeLine} onChange={(e) => onChange('welcomeLine', e.target.value)} hint="Up to 160 characters, under the Home screen’s heading. Empty: none." error={errorOf('welcomeLine')} maxLength={160} autoComplete="off" />
      <AccentField value={value.accentColour} onChange={(colour) => onChange('accentColour', colour)} error={errorOf('accentColour')} />
      <LogoPicker />
    </fieldset>
  )
}

/** What the accent would do to each place it is used, as the person types. */
export function accentVerdict(value: string): { ok: boolean; words: string } {
  const colour = value.trim().toLowerCase()
  if (!isHexColour(colour)) return { ok: false, words: 'Write the colour as # and six hex digits, e.g. #0b5cad.' }
  const refusal = accentRefusal(colour)
  if (refusal) return { ok: false, words: `Not readable enough: it ${refusal}.` }
  const weakest = Math.min(...accentPairs.map((pair) => contrastRatio(colour, pair.other)))
  return { ok: true, words: `Readable: it meets WCAG AA (4.5:1) everywhere it is used; the weakest pair is ${formatRatio(weakest)}.` }
}

function AccentField({ value, onChange, error }: { value: string; onChange: (value: string) => void; error: string | undefined }) {
  const verdictId = useId()
  const verdict = accentVerdict(value)
  const colour = value.trim().toLowerCase()
  return (
    <FieldFrame
      label="Accent colour"
      hint="Buttons, tiles and highlights. #rrggbb; the kiosk refuses a colour that would make them hard to read."
      error={error}
      control={(wiring) => (
        <>
          <div className="accent-row">
            <input {...wiring} aria-describedby={[wiring['aria-describedby'], verdictId].filter(Boolean).join(' ')} value={value} onChange={(e) => onChange(e.target.value)} maxLength={7} autoComplete="off" spellCheck={false} />
            <input type="color" className="accent-picker" aria-label="Pick the accent colour" value={isHexColour(colour) ? colour : '#000000'} onChange={(e) => onChange(e.target.value)} />
          </div>
          <p id={verdictId} className={verdict.ok ? 'hint accent-verdict' : 'field-error accent-verdict'} aria-live="polite" data-testid="accent-verdict">
            {verdict.words}
          </p>
        </>
      )}
    />
  )
}

/** The file's bytes as base64 (without the data: prefix) for setLogo. */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''))
    reader.onerror = () => reject(new Error('The file could not be read.'))
    reader.readAsDataURL(file)
  })
}

/** The logo: the stored one shown as the top bar shows it, a file picker that stores a new one at once, and Remove. */
function LogoPicker() {
  const branding = useLive((s) => s.branding)
  const action = useAction()
  const [message, setMessage] = useState<string | null>(null)
  const [localError, setLocalError] = useState<string | null>(null)

  const store = async (image: string | null, done: string) => {
    const outcome = await action.run(() => kiosk.setLogo({ image }), image === null ? 'remove' : 'upload')
    if (outcome.ok) {
      useLive.setState({ branding: outcome.value })
      setMessage(done)
    }
  }
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget
    const file = input.files?.[0]
    setMessage(null)
    setLocalError(null)
    action.clear()
    if (!file) return
    if (file.size > LOGO_MAX_BYTES) {
      setLocalError(`${file.name} is ${Math.ceil(file.size / 1024)} KB; a logo may be at most ${LOGO_MAX_BYTES / 1024} KB.`)
    } else {
      let image: string | null = null
      try {
        image = await readBase64(file)
      } catch {
        setLocalError(`${file.name} could not be read.`)
      }
      if (image !== null) await store(image, `Logo saved from ${file.name}. Every screen shows it now.`)
    }
    input.value = '' // the same file can be chosen again
  }

  const error = localError ?? (action.error ? describeError(action.error).message : null)
  const name = branding?.organisationName ?? ''
  return (
    <div className="logo-picker">
      <FieldFrame
        label="Logo"
        hint="PNG or SVG, at most 256 KB. Saved as soon as it is chosen; the kiosk redraws it as a plain PNG, and refuses an SVG that loads or runs anything."
        error={error}
        control={(wiring) => <input {...wiring} type="file" accept="image/png,image/svg+xml,.png,.svg" disabled={action.busy} onChange={(e) => void choose(e)} data-testid="logo-file" />}
      />
      <div className="logo-preview" data-testid="logo-preview">
        <p className="hint">As the top bar shows it:</p>
        <div className="logo-preview-bar">
          {branding?.logo ? <img className="brand-logo" src={branding.logo} alt="The current logo" /> : <span className="logo-none">No logo</span>}
          <span>{name}</span>
        </div>
      </div>
      <div className="actions">
        <Button variant="secondary" disabled={!branding?.logo} busy={action.busyKey === 'remove'} onClick={() => void store(null, 'Logo removed.')}>
          Remove logo
        </Button>
      </div>
      {message ? <Notice kind="success">{message}</Notice> : null}
    </div>
  )
}
