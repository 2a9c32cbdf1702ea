import { useRef, useState, type FormEvent } from 'react'
import { serverCredentialNames, type ServerCredentialName, type ServerCredentialsInput } from '@shared/settings'
import type { ConnectionTestResult, ConnectionTestStep } from '@shared/workflows'
import { kiosk } from '../../bridge/kiosk'
import { Busy, Button, ErrorNotice, Field, Notice, LoadError } from '../../components/ui'
import { fieldErrorsOf } from './format'
import { useAction, useLoad } from './hooks'

const credentialLabels: Record<ServerCredentialName, { label: string; hint: string }> = {
  clientId: { label: 'Person server client ID', hint: 'The OAuth2 client the kiosk signs in with.' },
  clientSecret: { label: 'Person server client secret', hint: 'The secret that goes with the client ID.' },
  bioengineJwt: { label: 'BioEngine token (JWT)', hint: 'Only when BioEngine sign-in is “a stored token”: header.payload.signature, without “Bearer”.' },
}

/**
 * Credentials, write-only: each input starts empty and is never filled from the keychain; only
 * whether a value is stored is shown. The inputs are uncontrolled so a typed secret never becomes
 * an attribute in the page, and the form is emptied once they are stored.
 */
export function CredentialsSection() {
  const status = useLoad(() => kiosk.getCredentialStatus({}))
  const save = useAction()
  const clear = useAction()
  const form = useRef<HTMLFormElement>(null)
  const [message, setMessage] = useState<string | null>(null)
  const [emptyForm, setEmptyForm] = useState(false)
  const fieldErrors = fieldErrorsOf(save.error, serverCredentialNames)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    setMessage(null)
    clear.clear()
    const data = new FormData(event.currentTarget)
    const input: ServerCredentialsInput = {}
    for (const name of serverCredentialNames) {
      const value = data.get(name)
      if (typeof value === 'string' && value !== '') input[name] = value
    }
    if (Object.keys(input).length === 0) {
      save.clear()
      setEmptyForm(true)
      return
    }
    setEmptyForm(false)
    const outcome = await save.run(() => kiosk.setCredentials(input))
    if (outcome.ok) {
      form.current?.reset()
      status.setData(outcome.value)
      setMessage(`Stored in the computer’s keychain: ${Object.keys(input).map((n) => credentialLabels[n as ServerCredentialName].label.toLowerCase()).join(', ')}.`)
    }
  }

  const remove = async (names: ServerCredentialName[]) => {
    setMessage(null)
    save.clear()
    const outcome = await clear.run(() => kiosk.clearCredentials({ names }), names.join(','))
    if (outcome.ok) {
      status.setData(outcome.value)
      setMessage(`Removed from the keychain: ${names.map((n) => credentialLabels[n].label.toLowerCase()).join(', ')}.`)
    }
  }

  const stored = status.data
  return (
    <section className="staff-section" aria-labelledby="credentials-title">
      <h2 id="credentials-title">Credentials</h2>
      <p className="hint">
        For remote servers. They are kept in the computer’s keychain and can be replaced or removed, never shown. The embedded engine uses its own.
      </p>
      {status.loading && !stored ? <Busy label="Checking the keychain…" /> : null}
      {status.error ? (
        <LoadError error={status.error} title="The keychain could not be read" onRetry={() => void status.reload()} />
      ) : null}
      <form ref={form} onSubmit={(e) => void submit(e)} noValidate autoComplete="off">
        {serverCredentialNames.map((name) => (
          <div key={name} className="staff-credential">
            <Field
              label={credentialLabels[name].label}
              name={name}
              type="password"
              autoComplete="new-password"
              spellCheck={false}
              hint={`Status: ${stored ? (stored[name] ? 'stored' : 'not set') : 'checking…'}. ${credentialLabels[name].hint}`}
              placeholder={stored?.[name] ? 'Stored: type a new value to replace it' : undefined}
              error={fieldErrors?.fields[name]}
              data-testid={`credential-${name}`}
            />
            {stored?.[name] ? (
              <Button variant="secondary" className="btn-small" aria-label={`Remove the stored ${credentialLabels[name].label.toLowerCase()}`} busy={clear.busyKey === name} disabled={clear.busy || save.busy} onClick={() => void remove([name])}>
                Remove
              </Button>
            ) : null}
          </div>
        ))}
        {emptyForm ? <Notice kind="warning">Type at least one credential to store.</Notice> : null}
        {save.error && (!fieldErrors || fieldErrors.other.length > 0) ? <ErrorNotice error={save.error} title="The credentials were not stored" /> : null}
        {clear.error ? <ErrorNotice error={clear.error} title="The credentials were not removed" /> : null}
        {message ? <Notice kind="success">{message}</Notice> : null}
        <div className="actions">
          <Button type="submit" busy={save.busy} disabled={clear.busy}>
            Store credentials
          </Button>
        </div>
      </form>
    </section>
  )
}

const stepWords: Record<ConnectionTestStep['name'], string> = {
  servers: 'Servers',
  token: 'Sign-in token',
  templateTypes: 'Template type installed',
  tenant: 'Tenant found',
}

/** Tries the saved settings step by step and lists each step with its outcome and time. */
export function ConnectionTestSection({ unsaved }: { unsaved: boolean }) {
  const test = useAction()
  const [result, setResult] = useState<ConnectionTestResult | null>(null)

  const run = async () => {
    setResult(null)
    const outcome = await test.run(() => kiosk.testConnection({}))
    if (outcome.ok) setResult(outcome.value)
  }

  const failed = result?.steps.find((s) => !s.ok)
  return (
    <section className="staff-section" aria-labelledby="connection-title">
      <h2 id="connection-title">Connection test</h2>
      <p className="hint">Tries the saved settings: reaching the servers, signing in, the template type, the tenant.</p>
      {unsaved ? <Notice kind="warning">You have unsaved changes: the test uses the settings as last saved.</Notice> : null}
      <div className="actions">
        <Button onClick={() => void run()} busy={test.busy}>
          Test connection
        </Button>
      </div>
      {test.busy ? <Busy label="Testing the connection…" /> : null}
      {test.error ? <ErrorNotice error={test.error} title="The test could not run" /> : null}
      {result ? (
        <>
          {result.ok ? (
            <Notice kind="success" title="The connection works.">Every step passed.</Notice>
          ) : (
            <Notice kind="error" title={`The connection failed at “${failed ? stepWords[failed.name] : 'a step'}”.`}>
              <p>Read the step’s detail below, correct Settings or the credentials, save, and test again.</p>
            </Notice>
          )}
          <ol className="staff-steps" data-testid="connection-steps">
            {result.steps.map((step) => (
              <li key={step.name} className={step.ok ? 'ok' : 'failed'}>
                <span className="staff-step-name">{stepWords[step.name]}</span>{' '}
                <strong className="staff-step-verdict">{step.ok ? 'OK' : 'Failed'}</strong> <span className="hint">({step.ms} ms)</span>
                <div>{step.detail}</div>
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </section>
  )
}
