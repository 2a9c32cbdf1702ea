import type { TemplateTypeInfo } from '@shared/api-models'
import { basicAuthEncodings, type BasicAuthEncoding } from '@shared/settings'
import { scaleLabel, scaleOf } from '@shared/score-scale'
import { Field } from '../../components/ui'
import { markOnScale } from '../scores'
import { SelectField } from './controls'

/** A choice among the BioEngine's template types when it can be asked; a text field when it cannot. */
export function TemplateTypeField({
  value,
  onChange,
  error,
  types,
  loading,
}: {
  value: string
  onChange: (value: string) => void
  error: string | undefined
  types: TemplateTypeInfo[] | null
  loading: boolean
}) {
  if (types && types.length > 0) {
    const options = types.map((t) => ({
      value: t.templateType,
      label: `${t.templateType} (${t.scoreThreshold === null ? 'no threshold given' : `threshold ${markOnScale(t.scoreThreshold)}`})`,
    }))
    if (!types.some((t) => t.templateType === value)) options.unshift({ value, label: `${value} (not offered by the BioEngine)` })
    return <SelectField label="Template type" value={value} onChange={(e) => onChange(e.target.value)} options={options} error={error} hint="The face algorithm used for enrolling and matching." />
  }
  return (
    <Field
      label="Template type"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      autoComplete="off"
      hint={loading ? 'Asking the BioEngine which types it offers…' : 'The BioEngine could not be asked for its types; type one, e.g. Face:HumanFaceRes.'}
    />
  )
}

/** What the BioEngine says about the configured template type's threshold, as far as it is known. */
export type ServerThresholdState = { state: 'loading' } | { state: 'unknown' } | { state: 'known'; info: TemplateTypeInfo }

/**
 * A verify or identify threshold override: empty uses the template type's own threshold, which is
 * shown beside the field with its scale (or that the BioEngine gives none; nothing when it could
 * not be asked).
 */
export function ThresholdOverrideField({
  label,
  kind,
  purpose,
  value,
  onChange,
  error,
  server,
}: {
  label: string
  kind: 'verify' | 'identify'
  purpose: string
  value: string
  onChange: (value: string) => void
  error: string | undefined
  server: ServerThresholdState
}) {
  let hint: string
  if (server.state === 'known' && server.info.scoreThreshold !== null) {
    const scale = scaleLabel(scaleOf(server.info.scoreThreshold))
    hint = `Server: ${markOnScale(server.info.scoreThreshold)}. Leave empty to use it; an override is on the same ${scale} scale. ${purpose}`
  } else if (server.state === 'known') {
    hint = `Server: the BioEngine gives none for ${server.info.templateType}. Set one here, on the scale the type scores (0–1 or 0–100), or ${kind} cannot decide. ${purpose}`
  } else if (server.state === 'loading') {
    hint = `Asking the BioEngine for its threshold… Leave empty to use the server’s. ${purpose}`
  } else {
    hint = `Leave empty to use the server’s threshold. ${purpose}`
  }
  return <Field label={label} type="number" inputMode="decimal" step="any" min={0} value={value} onChange={(e) => onChange(e.target.value)} hint={hint} error={error} />
}

const encodingLabels: Record<BasicAuthEncoding, string> = {
  'form-urlencoded': 'Form-encoded, as OAuth 2 says (default)',
  plain: 'Plain, as in the vendor’s sample code',
}

/** How the client ID and secret go into the token call's Basic credentials. */
export function BasicEncodingField({ value, onChange, error }: { value: BasicAuthEncoding; onChange: (value: BasicAuthEncoding) => void; error: string | undefined }) {
  return (
    <SelectField
      label="Client ID and secret encoding"
      value={value}
      onChange={(e) => onChange(e.target.value as BasicAuthEncoding)}
      options={basicAuthEncodings.map((encoding) => ({ value: encoding, label: encodingLabels[encoding] }))}
      error={error}
      hint="How the sign-in sends the client ID and secret. Form-encoded: each is URL-encoded first, as RFC 6749 §2.3.1 says. Plain: each is sent as it is, as the vendor’s own samples do. It only matters when the ID or the secret contains reserved characters such as % + : & =; if the person server refuses credentials you know are right, try the other."
    />
  )
}

/** A whole-number setting, kept as typed (the draft checks it on save). */
export function NumberField({ label, value, onChange, hint, error }: { label: string; value: string; onChange: (value: string) => void; hint: string; error: string | undefined }) {
  return <Field label={label} type="number" inputMode="numeric" step={1} value={value} onChange={(e) => onChange(e.target.value)} hint={hint} error={error} />
}
