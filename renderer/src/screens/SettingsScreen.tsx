import { useState, type FormEvent } from 'react'
import { templateType as templateTypeSchema, type BioEngineAuth, type KioskMode, type KioskSettings } from '@shared/settings'
import { kiosk } from '../bridge/kiosk'
import { Busy, Button, CheckField, ErrorNotice, Field, Notice, LoadError } from '../components/ui'
import { useLive } from '../store/live'
import { RadioGroup } from './staff/controls'
import { fieldErrorsOf } from './staff/format'
import { useAction, useLoad } from './staff/hooks'
import { diff, serverThreshold, settingKeys, toDraft, typedFieldsChanged, type Draft, type SettingKey } from './staff/settings-draft'
import { BasicEncodingField, NumberField, TemplateTypeField, ThresholdOverrideField, type ServerThresholdState } from './staff/SettingsFields'
import { ConnectionTestSection, CredentialsSection } from './staff/SettingsParts'
import { HostNoticeSettings } from './staff/HostNoticeSettings'
import { OrganisationFieldset } from './staff/OrganisationFields'
import { ScreenFrame } from './ScreenFrame'
import { JoinSiteSection, SiteFacts } from './staff/SiteSettings'
import { TemplateTypeChange } from './staff/TemplateTypeChange'
import './staff/staff.css'

/** The kiosk's settings, its credentials (write-only) and a connection test. */
export function SettingsScreen() {
  const settings = useLoad(() => kiosk.getSettings({}))
  // Joining a site changes the servers: the form starts again from what the services say now.
  const [joins, setJoins] = useState(0)
  return (
    <ScreenFrame staff title="Settings" purpose="Where the kiosk’s servers are, which tenant and template type it uses, how strictly faces must match, and the organisation’s look.">
      {settings.loading && !settings.data ? <Busy label="Loading the settings…" /> : null}
      {settings.error && !settings.data ? (
        <LoadError error={settings.error} title="The settings could not be loaded" onRetry={() => void settings.reload()} />
      ) : null}
      {settings.data ? (
        <SettingsForm
          key={joins}
          initial={settings.data}
          onJoined={() => {
            useLive.getState().loadSettings()
            void settings.reload().then(() => setJoins((n) => n + 1))
          }}
        />
      ) : null}
    </ScreenFrame>
  )
}

function SettingsForm({ initial, onJoined }: { initial: KioskSettings; onJoined: () => void }) {
  const [saved, setSaved] = useState(initial)
  const [draft, setDraft] = useState<Draft>(() => toDraft(initial))
  const [localErrors, setLocalErrors] = useState<Partial<Record<SettingKey, string>>>({})
  const [message, setMessage] = useState<string | null>(null)
  const save = useAction()
  const types = useLoad(() => kiosk.getTemplateTypes({}))

  const server = fieldErrorsOf(save.error, settingKeys)
  const errorOf = (key: SettingKey) => localErrors[key] ?? server?.fields[key]
  const { patch } = diff(draft, saved, types.data)
  const dirty = Object.keys(patch).length > 0 || typedFieldsChanged(draft, saved)
  const found = serverThreshold(types.data, draft.templateType)
  // A new template type, well-formed: its consequences are shown before it can be saved.
  const newType = templateTypeSchema.safeParse(draft.templateType)
  const changedType = newType.success && newType.data !== saved.templateType ? newType.data : null
  const serverMark: ServerThresholdState = found.known ? { state: 'known', info: found.info } : types.loading && !types.data ? { state: 'loading' } : { state: 'unknown' }

  const set =
    <K extends keyof Draft>(key: K) =>
    (value: Draft[K]) => {
      setMessage(null)
      setDraft((d) => ({ ...d, [key]: value }))
    }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setMessage(null)
    const { patch: changes, errors } = diff(draft, saved, types.data)
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
          {draft.mode === 'site' ? (
            <SiteFacts settings={saved} />
          ) : (
            <RadioGroup<KioskMode>
              legend="Which servers"
              name="mode"
              value={draft.mode}
              onChange={set('mode')}
              error={errorOf('mode')}
              options={[
                { value: 'embedded', label: 'Embedded engine', hint: 'Runs on this computer; nothing else to set up. The whole front desk (staff, watchlist, visits, hosts, invites, host notices and the organisation’s look) is kept on this kiosk.' },
                { value: 'remote', label: 'Remote servers', hint: 'A person server and a BioEngine on the network, such as a vendor’s. The whole front desk (staff, watchlist, visits, hosts, invites, host notices and the organisation’s look) stays on this kiosk.' },
              ]}
            />
          )}
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
              <BasicEncodingField value={draft.basicAuthEncoding} onChange={set('basicAuthEncoding')} error={errorOf('basicAuthEncoding')} />
            </>
          ) : null}
          <NumberField label="Connect timeout (seconds)" value={draft.connectTimeoutSeconds} onChange={set('connectTimeoutSeconds')} hint="1–60. How long to wait to reach either server before it counts as unreachable." error={errorOf('connectTimeoutSeconds')} />
          <NumberField label="Request timeout (seconds)" value={draft.requestTimeoutSeconds} onChange={set('requestTimeoutSeconds')} hint="2–300. How long to wait for a server’s answer once connected; face work on a busy server can take a while." error={errorOf('requestTimeoutSeconds')} />
          {draft.mode === 'site' ? (
            <NumberField
              label="Staff sign-in while the site is away (hours)"
              value={draft.offlineSignInHours}
              onChange={set('offlineSignInHours')}
              hint="0–168. For this long since the site last answered, staff sign in from this kiosk’s copy of their accounts (as of its last sync); after it, and with 0, only an administrator."
              error={errorOf('offlineSignInHours')}
            />
          ) : null}
        </fieldset>

        {draft.mode !== 'embedded' ? (
          <fieldset className="staff-fieldset">
            <legend>Offline replica</legend>
            <CheckField
              label="Decide on this device when the servers cannot be reached"
              checked={draft.offlineReplica}
              onChange={set('offlineReplica')}
              hint="Off by default. When on, each visitor enrolled or verified here is also kept on this computer (the kiosk’s own face template, encrypted), so Verify and Identify still decide offline, saying so on screen and in the audit. Visitors enrolled elsewhere and never verified here are not known offline. Turning it off, or changing the servers or tenant, deletes it."
            />
            {draft.offlineReplica ? (
              <>
                <NumberField label="Replica retention (days)" value={draft.offlineReplicaDays} onChange={set('offlineReplicaDays')} hint="1–365. A local record not enrolled or verified here again for this long is deleted (hourly)." error={errorOf('offlineReplicaDays')} />
                <NumberField label="Replica size (persons)" value={draft.offlineReplicaMaxPersons} onChange={set('offlineReplicaMaxPersons')} hint="1–10000. Past it, the records confirmed longest ago are deleted." error={errorOf('offlineReplicaMaxPersons')} />
              </>
            ) : null}
          </fieldset>
        ) : null}

        <fieldset className="staff-fieldset">
          <legend>Tenant and app</legend>
          {/* On a site the tenant is the site's, given at pairing. */}
          {draft.mode === 'site' ? null : <Field label="Tenant code" value={draft.tenantCode} onChange={(e) => set('tenantCode')(e.target.value)} error={errorOf('tenantCode')} autoComplete="off" />}
          <Field label="App code" value={draft.appCode} onChange={(e) => set('appCode')(e.target.value)} error={errorOf('appCode')} autoComplete="off" />
        </fieldset>

        <fieldset className="staff-fieldset">
          <legend>Face matching</legend>
          <TemplateTypeField value={draft.templateType} onChange={set('templateType')} error={errorOf('templateType')} types={types.data} loading={types.loading} />
          {changedType ? <TemplateTypeChange from={saved.templateType} to={changedType} /> : null}
          <ThresholdOverrideField
            label="Verify threshold override"
            kind="verify"
            purpose="A visitor is verified at this score or above. Higher is stricter."
            value={draft.verifyThresholdOverride}
            onChange={set('verifyThresholdOverride')}
            error={errorOf('verifyThresholdOverride')}
            server={serverMark}
          />
          <ThresholdOverrideField
            label="Identify threshold override"
            kind="identify"
            purpose="A candidate counts as a match at this score or above."
            value={draft.identifyThresholdOverride}
            onChange={set('identifyThresholdOverride')}
            error={errorOf('identifyThresholdOverride')}
            server={serverMark}
          />
          <NumberField label="Identify: most candidates shown" value={draft.identifyMaxResults} onChange={set('identifyMaxResults')} hint="1–100." error={errorOf('identifyMaxResults')} />
        </fieldset>

        <fieldset className="staff-fieldset">
          <legend>Kiosk</legend>
          {draft.mode === 'site' ? null : (
            <Field
              label="Kiosk name"
              value={draft.kioskName}
              onChange={(e) => set('kioskName')(e.target.value)}
              maxLength={64}
              hint="The name this kiosk joins a site with, e.g. Main entrance: the site’s list of kiosks and its alerts say where something happened. Empty: this computer’s name."
              error={errorOf('kioskName')}
              autoComplete="off"
            />
          )}
          <NumberField label="Idle timeout (seconds)" value={draft.idleTimeoutSeconds} onChange={set('idleTimeoutSeconds')} hint="15–3600. With nobody touching it for this long, the kiosk returns to its start screen and forgets the visitor." error={errorOf('idleTimeoutSeconds')} />
          <NumberField label="Time for each liveness step (seconds)" value={draft.livenessStepSeconds} onChange={set('livenessStepSeconds')} hint="3–30. Where the tenant asks for a liveness check: how long a person has to blink or turn their head before the capture sends what it has." error={errorOf('livenessStepSeconds')} />
          <NumberField label="Audit retention (days)" value={draft.auditRetentionDays} onChange={set('auditRetentionDays')} hint="30–3650. Audit entries older than this are removed when the kiosk starts; the rest stays verifiable." error={errorOf('auditRetentionDays')} />
          <NumberField label="Visitor retention (days)" value={draft.visitorRetentionDays} onChange={set('visitorRetentionDays')} hint="1–3650, or empty to keep enrollments until staff remove them. Visitors enrolled longer ago are removed (hourly), each removal audited." error={errorOf('visitorRetentionDays')} />
        </fieldset>

        <OrganisationFieldset value={draft} onChange={(key, value) => set(key)(value)} errorOf={errorOf} />

        {fieldErrorCount > 0 && !unplacedError ? (
          <Notice kind="error" title="The settings were not saved">
            <p>{fieldErrorCount === 1 ? 'One field needs' : `${fieldErrorCount} fields need`} correcting: see the message under it.</p>
          </Notice>
        ) : null}
        {unplacedError ? <ErrorNotice error={save.error} title="The settings were not saved" /> : null}
        {message ? <Notice kind="success">{message}</Notice> : null}
        <div className="actions sticky-actions">
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

      {saved.mode === 'site' ? null : <JoinSiteSection onJoined={onJoined} />}
      {/* On a site the credentials are the ones pairing gave: changed by hand, the kiosk would lose its site. */}
      {saved.mode === 'site' ? null : <CredentialsSection />}
      <ConnectionTestSection unsaved={dirty} />
      <HostNoticeSettings />
    </>
  )
}
