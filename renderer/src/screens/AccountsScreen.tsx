import { useRef, useState, type FormEvent } from 'react'
import type { AccountView, StaffRole } from '@shared/staff'
import { kiosk } from '../bridge/kiosk'
import { DataTable } from '../components/DataTable'
import { Busy, Button, ErrorNotice, Field, LoadError, Notice } from '../components/ui'
import { roleWords, useSession } from '../store/session'
import { checkNewAccount } from './FirstRunScreen'
import { SelectField } from './staff/controls'
import { fieldErrorsOf, formatDateTime, plural } from './staff/format'
import { useAction, useLoad } from './staff/hooks'
import { ScreenFrame } from './ScreenFrame'
import './staff/staff.css'

const roleOptions: ReadonlyArray<{ value: StaffRole; label: string }> = [
  { value: 'operator', label: 'Operator: persons, outbox, audit, identify and face match' },
  { value: 'admin', label: 'Administrator: everything, including settings and accounts' },
]

/** Staff accounts (administrators only): who may sign in, with which role; add, disable, enable. */
export function AccountsScreen() {
  const me = useSession((s) => s.account)
  const reloadSession = useSession((s) => s.load)
  const accounts = useLoad(() => kiosk.listAccounts({}))
  const add = useAction()
  const toggle = useAction()
  const form = useRef<HTMLFormElement>(null)
  const [role, setRole] = useState<StaffRole>('operator')
  const [problems, setProblems] = useState<{ name?: string; secret?: string; confirm?: string }>({})
  const [message, setMessage] = useState<string | null>(null)
  const serviceProblems = fieldErrorsOf(add.error, ['name', 'secret', 'role'] as const)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    setMessage(null)
    toggle.clear()
    const data = new FormData(event.currentTarget)
    const name = String(data.get('name') ?? '')
    const secret = String(data.get('secret') ?? '')
    const found = checkNewAccount(name, secret, String(data.get('confirm') ?? ''))
    setProblems(found)
    if (Object.keys(found).length > 0) {
      add.clear()
      return
    }
    const outcome = await add.run(() => kiosk.createAccount({ name: name.trim(), role, secret }))
    if (outcome.ok) {
      form.current?.reset()
      setRole('operator')
      setMessage(`${outcome.value.name} was added as ${outcome.value.role === 'admin' ? 'an administrator' : 'an operator'}. They can sign in now.`)
      await accounts.reload()
    }
  }

  const setDisabled = async (account: AccountView, disabled: boolean) => {
    setMessage(null)
    add.clear()
    const outcome = await toggle.run(() => kiosk.setAccountDisabled({ name: account.name, disabled }), account.name)
    if (!outcome.ok) return
    accounts.setData((accounts.data ?? []).map((a) => (a.name === outcome.value.name ? outcome.value : a)))
    setMessage(disabled ? `${account.name} is disabled: they cannot sign in, and a session of theirs has ended.` : `${account.name} is enabled: they can sign in again.`)
    // Disabling one's own account ends one's own session: the page follows the services.
    if (disabled && me !== null && account.name.toLowerCase() === me.toLowerCase()) await reloadSession()
  }

  const list = accounts.data
  return (
    <ScreenFrame staff title="Accounts" purpose="Who may sign in to the staff screens of this kiosk, and what they may do.">
      <div className="staff-columns">
        <section className="staff-section" aria-labelledby="accounts-list-title">
          <h2 id="accounts-list-title">Staff accounts</h2>
          {accounts.loading && !list ? <Busy label="Loading the accounts…" /> : null}
          {accounts.error ? <LoadError error={accounts.error} title="The accounts could not be loaded" onRetry={() => void accounts.reload()} /> : null}
          {list ? (
            <>
              <p className="hint" data-testid="accounts-summary">
                {plural(list.length, 'account')}, {plural(list.filter((a) => !a.disabled).length, 'active account')}.
              </p>
              <DataTable
                caption="Staff accounts"
                captionHidden
                testId="accounts"
                rows={list}
                rowKey={(account) => account.name}
                columns={[
                  { header: 'Name', rowHeader: true, cell: (account) => `${account.name}${me !== null && account.name.toLowerCase() === me.toLowerCase() ? ' (you)' : ''}` },
                  { header: 'Role', cell: (account) => roleWords[account.role] },
                  { header: 'Status', cell: (account) => (account.disabled ? 'Disabled' : 'Active') },
                  { header: 'Last sign-in', cell: (account) => (account.lastSignInAt === null ? 'Never' : formatDateTime(account.lastSignInAt)) },
                  { header: 'Created', cell: (account) => formatDateTime(account.createdAt) },
                  {
                    header: null,
                    actions: true,
                    cell: (account) => (
                      <Button
                        variant="secondary"
                        className="btn-small"
                        aria-label={`${account.disabled ? 'Enable' : 'Disable'} ${account.name}`}
                        busy={toggle.busyKey === account.name}
                        disabled={toggle.busy}
                        onClick={() => void setDisabled(account, !account.disabled)}
                      >
                        {account.disabled ? 'Enable' : 'Disable'}
                      </Button>
                    ),
                  },
                ]}
              />
            </>
          ) : null}
          {toggle.error ? <ErrorNotice error={toggle.error} title="The account was not changed" /> : null}
        </section>

        <section className="staff-section" aria-labelledby="accounts-add-title">
          <h2 id="accounts-add-title">Add a staff account</h2>
          <form ref={form} onSubmit={(e) => void submit(e)} noValidate autoComplete="off">
            <Field label="Name" name="name" autoComplete="off" spellCheck={false} hint="What they type to sign in: 2 to 64 letters, digits, spaces, dots, dashes or underscores." error={problems.name ?? serviceProblems?.fields.name ?? null} />
            <SelectField label="Role" name="role" value={role} onChange={(e) => setRole(e.target.value as StaffRole)} options={roleOptions} error={serviceProblems?.fields.role ?? null} />
            <Field label="PIN or password" name="secret" type="password" autoComplete="off" hint="At least 6 characters; a 6-digit PIN is the shortest accepted." error={problems.secret ?? serviceProblems?.fields.secret ?? null} />
            <Field label="Confirm PIN or password" name="confirm" type="password" autoComplete="off" error={problems.confirm ?? null} />
            <div className="actions">
              <Button type="submit" busy={add.busy}>
                Add account
              </Button>
            </div>
          </form>
          {add.error ? <ErrorNotice error={add.error} title="The account was not added" /> : null}
          {message ? <Notice kind="success">{message}</Notice> : null}
        </section>
      </div>
    </ScreenFrame>
  )
}
