import { useRef, useState, type FormEvent } from 'react'
import { smtpSettingsSchema, type HostNoticeSecretsInput, type SmtpSettings } from '@shared/host-notices'
import { kiosk } from '../../bridge/kiosk'
import { Busy, Button, ErrorNotice, Field, LoadError, Notice } from '../../components/ui'
import { t } from '../../i18n'
import { SelectField } from './controls'
import { useAction, useLoad } from './hooks'

type Draft = { host: string; port: string; security: SmtpSettings['security']; from: string; user: string }
type SecretName = keyof HostNoticeSecretsInput
const secretNames: readonly SecretName[] = ['smtpPassword', 'webhookSecret']
const words = 'staff:hostNotices.settings'

const draftOf = (smtp: SmtpSettings | null): Draft =>
  smtp ? { host: smtp.host, port: String(smtp.port), security: smtp.security, from: smtp.from, user: smtp.user ?? '' } : { host: '', port: '587', security: 'starttls', from: '', user: '' }

/** The draft as the contract takes it, or the rule each field breaks (the services check the same schema). */
function parseDraft(draft: Draft): { smtp: SmtpSettings } | { errors: Partial<Record<keyof Draft, string>> } {
  const parsed = smtpSettingsSchema.safeParse({ ...draft, port: Number(draft.port), user: draft.user.trim() === '' ? null : draft.user })
  if (parsed.success) return { smtp: parsed.data }
  const errors: Partial<Record<keyof Draft, string>> = {}
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof Draft
    errors[field] ??= issue.message
  }
  return { errors }
}

/** An administrator sets how hosts are told: the SMTP server, and the SMTP password and webhook signing secret (write-only, in the keychain). */
export function HostNoticeSettings() {
  const settings = useLoad(async () => {
    const loaded = await kiosk.getHostNoticeSettings({})
    setDraft(draftOf(loaded.smtp))
    return loaded
  })
  const [draft, setDraft] = useState<Draft>(draftOf(null))
  const [errors, setErrors] = useState<Partial<Record<keyof Draft, string>>>({})
  const save = useAction()
  const secrets = useAction()
  const form = useRef<HTMLFormElement>(null)
  const [message, setMessage] = useState<string | null>(null)
  const [secretMessage, setSecretMessage] = useState<string | null>(null)

  const saveSmtp = async (value: SmtpSettings | null) => {
    setMessage(null)
    const outcome = await save.run(() => kiosk.saveHostNoticeSettings({ smtp: value }), value ? 'save' : 'off')
    if (outcome.ok) {
      settings.setData(outcome.value)
      setDraft(draftOf(outcome.value.smtp))
      setMessage(t(value ? `${words}.saved` : `${words}.turnedOff`))
    }
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const parsed = parseDraft(draft)
    setErrors('errors' in parsed ? parsed.errors : {})
    if ('smtp' in parsed) await saveSmtp(parsed.smtp)
  }

  const storeSecrets = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    setSecretMessage(null)
    const data = new FormData(event.currentTarget)
    const input: HostNoticeSecretsInput = {}
    for (const name of secretNames) {
      const value = data.get(name)
      if (typeof value === 'string' && value !== '') input[name] = value
    }
    if (Object.keys(input).length === 0) {
      secrets.setError(new Error(t(`${words}.typeASecret`)))
      return
    }
    await changeSecrets(input, t(`${words}.secretsStored`), 'store')
  }

  const changeSecrets = async (input: HostNoticeSecretsInput, done: string, key: string) => {
    setSecretMessage(null)
    const outcome = await secrets.run(() => kiosk.setHostNoticeSecrets(input), key)
    if (outcome.ok && settings.data) {
      form.current?.reset()
      settings.setData({ ...settings.data, secrets: outcome.value })
      setSecretMessage(done)
    }
  }

  const s = settings.data
  const field = (name: keyof Draft) => ({
    value: draft[name],
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [name]: e.target.value }),
    error: errors[name] ?? null,
    'data-testid': `smtp-${name}`,
  })
  return (
    <section className="staff-section" aria-labelledby="host-notice-settings-title">
      <h2 id="host-notice-settings-title">{t(`${words}.title`)}</h2>
      <p className="hint">{t(`${words}.purpose`)}</p>
      {!s && settings.loading ? <Busy label={t(`${words}.loading`)} /> : null}
      {!s && settings.error ? <LoadError error={settings.error} title={t(`${words}.loadError`)} onRetry={() => void settings.reload()} /> : null}
      {s ? (
        <>
          <h3>{t(`${words}.smtpTitle`)}</h3>
          {s.smtp === null ? <Notice kind="info">{t(`${words}.notSet`)}</Notice> : null}
          <form onSubmit={(e) => void submit(e)} noValidate autoComplete="off">
            <Field label={t(`${words}.host`)} hint={t(`${words}.hostHint`)} spellCheck={false} {...field('host')} />
            <Field label={t(`${words}.port`)} hint={t(`${words}.portHint`)} inputMode="numeric" {...field('port')} />
            <SelectField
              label={t(`${words}.security`)}
              value={draft.security}
              error={errors.security ?? null}
              onChange={(e) => setDraft({ ...draft, security: e.target.value as Draft['security'] })}
              options={[
                { value: 'tls', label: t(`${words}.securityTls`) },
                { value: 'starttls', label: t(`${words}.securityStarttls`) },
                { value: 'none', label: t(`${words}.securityNone`) },
              ]}
            />
            <Field label={t(`${words}.from`)} hint={t(`${words}.fromHint`)} type="email" {...field('from')} />
            <Field label={t(`${words}.user`)} hint={t(`${words}.userHint`)} spellCheck={false} {...field('user')} />
            {save.error ? <ErrorNotice error={save.error} title={t(`${words}.saveError`)} /> : null}
            {message ? <Notice kind="success">{message}</Notice> : null}
            <div className="actions">
              <Button type="submit" busy={save.busyKey === 'save'} disabled={save.busy}>
                {t(`${words}.save`)}
              </Button>
              {s.smtp ? (
                <Button variant="secondary" busy={save.busyKey === 'off'} disabled={save.busy} onClick={() => void saveSmtp(null)}>
                  {t(`${words}.turnOff`)}
                </Button>
              ) : null}
            </div>
          </form>

          <h3>{t(`${words}.secretsTitle`)}</h3>
          <form ref={form} onSubmit={(e) => void storeSecrets(e)} noValidate autoComplete="off">
            {secretNames.map((name) => (
              <div key={name} className="staff-credential">
                <Field
                  label={t(`${words}.${name}`)}
                  name={name}
                  type="password"
                  autoComplete="new-password"
                  spellCheck={false}
                  hint={[t(`${words}.secretStatus`, { status: t(s.secrets[name] ? `${words}.stored` : `${words}.notStored`) }), name === 'webhookSecret' ? t(`${words}.webhookSecretHint`) : ''].join(' ').trim()}
                  data-testid={`secret-${name}`}
                />
                {s.secrets[name] ? (
                  <Button
                    variant="secondary"
                    className="btn-small"
                    aria-label={t(`${words}.removeLabel`, { what: t(`${words}.${name}`).toLowerCase() })}
                    busy={secrets.busyKey === name}
                    disabled={secrets.busy}
                    onClick={() => void changeSecrets({ [name]: null }, t(`${words}.secretRemoved`), name)}
                  >
                    {t(`${words}.remove`)}
                  </Button>
                ) : null}
              </div>
            ))}
            {secrets.error ? <ErrorNotice error={secrets.error} title={t(`${words}.secretsError`)} /> : null}
            {secretMessage ? <Notice kind="success">{secretMessage}</Notice> : null}
            <div className="actions">
              <Button type="submit" busy={secrets.busyKey === 'store'} disabled={secrets.busy}>
                {t(`${words}.storeSecrets`)}
              </Button>
            </div>
          </form>
        </>
      ) : null}
    </section>
  )
}
