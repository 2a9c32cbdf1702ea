import { useState, type FormEvent } from 'react'
import { codeField, type AppUserResult } from '@shared/workflows'
import { kiosk } from '../../bridge/kiosk'
import { Button, ErrorNotice, Field, Notice } from '../../components/ui'
import { useLive } from '../../store/live'
import { useAction } from './hooks'


/** The person server's "app user data" for one visitor: the kiosk's app, or an app staff name. */
export function AppUserSection({ userId }: { userId: string }) {
  const kioskApp = useLive((s) => s.settings?.appCode)
  const [appCode, setAppCode] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [result, setResult] = useState<AppUserResult | null>(null)
  const lookup = useAction()

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setResult(null)
    const value = appCode.trim()
    if (value !== '' && !codeField.safeParse(value).success) {
      setProblem('Enter an app code: letters, digits, dot, dash or underscore (1–64), or leave it empty.')
      lookup.clear()
      return
    }
    setProblem(null)
    const outcome = await lookup.run(() => kiosk.getAppUser(value === '' ? { userId } : { appCode: value, userId }))
    if (outcome.ok) setResult(outcome.value)
  }

  return (
    <section aria-labelledby="app-user-title">
      <h3 id="app-user-title">App user data</h3>
      <form className="staff-inline-form" onSubmit={(e) => void submit(e)} noValidate>
        <Field
          label="App code"
          value={appCode}
          onChange={(e) => setAppCode(e.target.value)}
          hint={`Leave empty for the kiosk’s own app${kioskApp ? `, ${kioskApp}` : ''}.`}
          error={problem}
          maxLength={64}
          autoComplete="off"
        />
        <Button type="submit" variant="secondary" busy={lookup.busy}>
          Show app user data
        </Button>
      </form>
      <div aria-live="polite" data-testid="app-user">
        {lookup.error ? <ErrorNotice error={lookup.error} title="The app user data could not be loaded" /> : null}
        {result ? (
          result.user ? (
            <Notice kind="info" title={`${userId} is a user of app ${result.user.appCode ?? result.appCode}.`}>
              <dl className="staff-facts">
                <dt>App code</dt>
                <dd>{result.user.appCode ?? result.appCode}</dd>
                <dt>Tenants</dt>
                <dd>{result.user.tenantCodes === null ? 'Not reported by this server' : result.user.tenantCodes.length === 0 ? 'None' : result.user.tenantCodes.join(', ')}</dd>
              </dl>
            </Notice>
          ) : (
            <Notice kind="warning" title={`${userId} is not a user of app ${result.appCode}.`}>
              The person server knows no user of that app with this user ID: none of the visitor’s tenants is associated with it.
            </Notice>
          )
        ) : null}
      </div>
    </section>
  )
}
