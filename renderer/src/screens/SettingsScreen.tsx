import { useState, type FormEvent } from 'react'
import type { TemplateTypeInfo } from '../../../electron/shared/api-models'
import type { BioEngineAuth, KioskMode, KioskSettings, SettingsPatch } from '../../../electron/shared/settings'
import { kiosk } from '../bridge/kiosk'
import { Busy, Button, ErrorNotice, Field, Notice, LoadError } from '../components/ui'
import { useLive } from '../store/live'
import { RadioGroup, SelectField } from './staff/controls'
import { fieldErrorsOf } from './staff/format'
import { useAction, useLoad } from './staff/hooks'
import { ConnectionTestSection, CredentialsSection } from './staff/SettingsParts'
import './staff/staff.css'

const numberKeys = ['verifyThreshold', 'identifyThreshold', 'identifyMaxResults', 'idleTimeoutSeconds'] as const
const textKeys = ['mode', 'personServerUrl', 'bioEngineUrl', 'tenantCode', 'appCode', 'templateType', 'bioEngineAuth'] as const
const settingKeys = [...textKeys, ...numberKeys] as const
type SettingKey = (typeof settingKeys)[number]
type NumberKey = (typeof numberKeys)[number]

/** The form's values: numbers as typed, so a half-typed value is kept as it is. */
type Draft = Omit<KioskSettings, NumberKey> & Record<NumberKey, string>

const toDraft = (s: KioskSettings): Draft => ({
  ...s,
  verifyThreshold: String(s.verifyThreshold),
  identifyThreshold: String(s.identifyThreshold),
  identifyMaxResults: String(s.identifyMaxResults),
  idleTimeoutSeconds: String(s.idleTimeoutSeconds),
})

/** What changed against the saved settings, as a patch; number fields that are not numbers come back as errors. */
function diff(draft: Draft, saved: KioskSettings): { patch: SettingsPatch; errors: Partial<Record<SettingKey, string>> } {
  const patch: Record<string, unknown> = {}
  const errors: Partial<Record<SettingKey, string>> = {}
  for (const key of textKeys) {
    const value = draft[key].trim()
    if (value !== saved[key]) patch[key] = value
  }
  for (const key of numberKeys) {
    const text = draft[key].trim()
    const value = Number(text)
    if (text === '' || !Number.isFinite(value)) errors[key] = 'Enter a number.'
    else if (value !== saved[key]) patch[key] = value
  }
  return { patch: patch as SettingsPatch, errors }
}

/** The kiosk's settings, its credentials (write-only) and a connection test. */
export function SettingsScreen() {
  const settings = useLoad(() => kiosk.getSettings({}))
  return (
    <section className="screen staff-screen">
      <h1 id="screen-title" tabIndex={-1}>
        Settings
      </h1>
      <p className="purpose">Where the kiosk’s servers are, which tenant and template type it uses, and how strictly faces must match.</p>
      {settings.loading && !settings.data ? <Busy label="Loading the settings…" /> : null}
      {settings.error && !settings.data ? (
        <LoadError error={settings.error} title="The settings could not be loaded" onRetry={() => void settings.reload()} />
      ) : null}
      {settings.data ? <SettingsForm initial={settings.data} /> : null}
    </section>
  )
}

function SettingsForm({ initial }: { initial: KioskSettings }) {
  const [saved, setSaved] = useState(initial)
  const [draft, setDraft] = useState<Draft>(() => toDraft(initial))
  const [localErrors, setLocalErrors] = useState<Partial<Record<SettingKey, string>>>({})
  const [message, setMessage] = useState<string | null>(null)
  const save = useAction()
  const types = useLoad(() => kiosk.getTemplateTypes({}))

  const server = fieldErrorsOf(save.error, settingKeys)
  const errorOf = (key: SettingKey) => localErrors[key] ?? server?.fields[key]
  const { patch } = diff(draft, saved)
  const dirty = Object.keys(patch).length > 0 || numberKeys.some((k) => draft[k].trim() !== String(saved[k]))

  const set =
    <K extends keyof Draft>(key: K) =>
    (value: Draft[K]) => {
      setMessage(null)
      setDraft((d) => ({ ...d, [key]: value }))
    }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setMessage(null)
    const { patch: changes, errors } = diff(draft, saved)
    setLocalErrors(errors)
    if (Object.keys(errors).length > 0) {
      save.clear()
      return
    }
    if (Object.keys(changes).length === 0) {
      save.clear()
      setMessage('Nothing to save: no setting was changed.')
      return
    }
    const outcome = await save.run(() => kiosk.saveSettings(changes))
    if (outcome.ok) {
      setSaved(outcome.value)
      setDraft(toDraft(outcome.value))
      useLive.getState().setSettings(outcome.value)
      setMessage('Settings saved. They apply from now on.')
    }
  }

  const unplacedError = save.error && (!server || server.other.length > 0)
  const fieldErrorCount = Object.keys(localErrors).length + Object.keys(server?.fields ?? {}).length

  return (
    <>
      <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby="settings-form-title">
        <h2 id="settings-form-title" className="visually-hidden">
          Kiosk settings
        </h2>
        <fieldset className="staff-fieldset">
          <legend>Servers</legend>
          <RadioGroup<KioskMode>
            legend="Which servers"
            name="mode"
            value={draft.mode}
            onChange={set('mode')}
            error={errorOf('mode')}
            options={[
              { value: 'embedded', label: 'Embedded engine', hint: 'Runs on this computer; nothing else to set up.' },
              { value: 'remote', label: 'Remote servers', hint: 'A person server and a BioEngine on the network.' },
            ]}
          />
          {draft.mode === 'remote' ? (
            <>
              <Field
                label="Person server address"
                type="url"
                value={draft.personServerUrl}
                onChange={(e) => set('personServerUrl')(e.target.value)}
                hint="e.g. https://identity.example.com"
                error={errorOf('personServerUrl')}
                autoComplete="off"
              />
              <Field
                label="BioEngine address"
                type="url"
                value={draft.bioEngineUrl}
                onChange={(e) => set('bioEngineUrl')(e.target.value)}
                hint="e.g. https://bioengine.example.com"
                error={errorOf('bioEngineUrl')}
                autoComplete="off"
              />
              <RadioGroup<BioEngineAuth>
                legend="BioEngine sign-in"
                name="bioEngineAuth"
                value={draft.bioEngineAuth}
                onChange={set('bioEngineAuth')}
                error={errorOf('bioEngineAuth')}
                options={[
                  { value: 'person-server-token', label: 'The person server’s token', hint: 'The BioEngine accepts the same sign-in.' },
                  { value: 'stored-jwt', label: 'A stored token', hint: 'The BioEngine token under Credentials.' },
                ]}
              />
            </>
          ) : null}
        </fieldset>

        <fieldset className="staff-fieldset">
          <legend>Tenant and app</legend>
          <Field label="Tenant code" value={draft.tenantCode} onChange={(e) => set('tenantCode')(e.target.value)} error={errorOf('tenantCode')} autoComplete="off" />
          <Field label="App code" value={draft.appCode} onChange={(e) => set('appCode')(e.target.value)} error={errorOf('appCode')} autoComplete="off" />
        </fieldset>

        <fieldset className="staff-fieldset">
          <legend>Face matching</legend>
          <TemplateTypeField value={draft.templateType} onChange={set('templateType')} error={errorOf('templateType')} types={types.data} loading={types.loading} />
          <Field
            label="Verify threshold"
            type="number"
            inputMode="decimal"
            step="any"
            value={draft.verifyThreshold}
            onChange={(e) => set('verifyThreshold')(e.target.value)}
            hint="0–100. A visitor is verified at this score or above. Higher is stricter."
            error={errorOf('verifyThreshold')}
          />
          <Field
            label="Identify threshold"
            type="number"
            inputMode="decimal"
            step="any"
            value={draft.identifyThreshold}
            onChange={(e) => set('identifyThreshold')(e.target.value)}
            hint="0–100. A candidate counts as a match at this score or above."
            error={errorOf('identifyThreshold')}
          />
          <Field
            label="Identify: most candidates shown"
            type="number"
            inputMode="numeric"
            step={1}
            value={draft.identifyMaxResults}
            onChange={(e) => set('identifyMaxResults')(e.target.value)}
            hint="1–100."
            error={errorOf('identifyMaxResults')}
          />
        </fieldset>

        <fieldset className="staff-fieldset">
          <legend>Kiosk</legend>
          <Field
            label="Idle timeout (seconds)"
            type="number"
            inputMode="numeric"
            step={1}
            value={draft.idleTimeoutSeconds}
            onChange={(e) => set('idleTimeoutSeconds')(e.target.value)}
            hint="15–3600. With nobody touching it for this long, the kiosk returns to its start screen and forgets the visitor."
            error={errorOf('idleTimeoutSeconds')}
          />
        </fieldset>

        {fieldErrorCount > 0 && !unplacedError ? (
          <Notice kind="error" title="The settings were not saved">
            <p>{fieldErrorCount === 1 ? 'One field needs' : `${fieldErrorCount} fields need`} correcting: see the message under it.</p>
          </Notice>
        ) : null}
        {unplacedError ? <ErrorNotice error={save.error} title="The settings were not saved" /> : null}
        {message ? <Notice kind="success">{message}</Notice> : null}
        <div className="actions">
          <Button type="submit" busy={save.busy}>
            Save settings
          </Button>
          <Button
            variant="secondary"
            disabled={!dirty || save.busy}
            onClick={() => {
              setDraft(toDraft(saved))
              setLocalErrors({})
              save.clear()
              setMessage(null)
            }}
          >
            Undo changes
          </Button>
        </div>
      </form>

      <CredentialsSection />
      <ConnectionTestSection unsaved={dirty} />
    </>
  )
}

/** A choice among the BioEngine's template types when it can be asked; a text field when it cannot. */
function TemplateTypeField({
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
    const options = types.map((t) => ({ value: t.templateType, label: `${t.templateType} (threshold ${t.scoreThreshold})` }))
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
