import { codeField } from '@shared/workflows'
import { useId, useState, type FormEvent } from 'react'
import type { AlgorithmAssociation, LicenseData, Tenant } from '@shared/api-models'
import { kiosk } from '../../bridge/kiosk'
import { Button, ErrorNotice, Field, Notice } from '../../components/ui'
import { AlgorithmLiveness, livenessCodeWords } from './AlgorithmLiveness'
import { ConfirmDialog } from './controls'
import { dayToEpochMs, formatDay } from './format'
import { useAction } from './hooks'

const codeHint = 'Letters, digits, dot, dash or underscore (1–64).'
const codeError = (value: string): string | null => (codeField.safeParse(value).success ? null : `Enter a code: ${codeHint.toLowerCase()}`)

/** Algorithms licensed to the tenant, with their licence data and liveness checks. */
export function AlgorithmsSection({ tenant, onChange, pluginNames }: { tenant: Tenant; onChange: (tenant: Tenant) => void; pluginNames: string[] }) {
  const algorithms = tenant.algorithms ?? []
  const unreported = tenant.algorithms === null
  const action = useAction()
  const [message, setMessage] = useState<string | null>(null)
  const [removing, setRemoving] = useState<string | null>(null)
  // A liveness check about to be removed: asked first, as for an algorithm (captures lose a protection).
  const [removingCheck, setRemovingCheck] = useState<{ algCode: string; code: string; last: boolean } | null>(null)
  const listId = useId()

  const change = async (key: string, work: () => Promise<Tenant>, done: string): Promise<boolean> => {
    setMessage(null)
    const outcome = await action.run(work, key)
    if (outcome.ok) {
      onChange(outcome.value)
      setMessage(done)
    }
    return outcome.ok
  }

  return (
    <section className="staff-section" aria-labelledby="algorithms-title">
      <h2 id="algorithms-title">Algorithms</h2>
      <p className="hint">Face algorithms tenant {tenant.code} may use, each with its licence and liveness checks.</p>
      {pluginNames.length > 0 ? (
        <datalist id={listId}>
          {pluginNames.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      ) : null}
      {unreported ? (
        <p data-testid="algorithms-unreported">
          Not reported by this server: its tenant record does not list algorithms, so the ones associated cannot be shown here. Associating one below
          still works.
        </p>
      ) : algorithms.length === 0 ? (
        <p>No algorithm is associated yet.</p>
      ) : null}
      <div className="staff-cards">
        {algorithms.map((alg) => (
          <AlgorithmCard
            key={alg.code}
            algorithm={alg}
            busyKey={action.busyKey}
            onAddLiveness={(livenessCode) =>
              change(`liveness-add:${alg.code}`, () => kiosk.associateLiveness({ algCode: alg.code, livenessCode }), `${livenessCodeWords(livenessCode).title} was added to ${alg.code}.`)
            }
            onRemoveLiveness={(livenessCode) => {
              action.clear()
              setRemovingCheck({ algCode: alg.code, code: livenessCode, last: (alg.liveness ?? []).length === 1 })
            }}
            onRemove={() => {
              action.clear()
              setRemoving(alg.code)
            }}
          />
        ))}
      </div>
      {action.error && !removing && !removingCheck ? <ErrorNotice error={action.error} title="The algorithms were not changed" /> : null}
      {message ? <Notice kind="success">{message}</Notice> : null}
      <AssociateAlgorithmForm
        listId={pluginNames.length > 0 ? listId : undefined}
        busy={action.busyKey === 'associate'}
        disabled={action.busy}
        onAssociate={(algCode, licenseData) =>
          change('associate', () => kiosk.associateAlgorithm({ algCode, ...(licenseData ? { licenseData } : {}) }), `Algorithm ${algCode} was associated.`)
        }
      />
      {removing ? (
        <ConfirmDialog
          title={`Remove algorithm ${removing}?`}
          confirmLabel="Remove algorithm"
          busy={action.busy}
          error={action.error}
          onCancel={() => setRemoving(null)}
          onConfirm={() =>
            void change(`remove:${removing}`, () => kiosk.disassociateAlgorithm({ algCode: removing }), `Algorithm ${removing} was removed.`).then((ok) => {
              if (ok) setRemoving(null)
            })
          }
        >
          <p>Tenant {tenant.code} can no longer use {removing}. Its licence data and liveness checks are removed with it.</p>
        </ConfirmDialog>
      ) : null}
      {removingCheck ? (
        <ConfirmDialog
          title={`Remove ${livenessCodeWords(removingCheck.code).title} from ${removingCheck.algCode}?`}
          confirmLabel="Remove check"
          busy={action.busy}
          error={action.error}
          onCancel={() => setRemovingCheck(null)}
          onConfirm={() => {
            const { algCode, code } = removingCheck
            void change(`liveness-remove:${algCode}:${code}`, () => kiosk.disassociateLiveness({ algCode, livenessCode: code }), `${livenessCodeWords(code).title} was removed from ${algCode}.`).then((ok) => {
              if (ok) setRemovingCheck(null)
            })
          }}
        >
          <p>
            {removingCheck.last
              ? `Captures with ${removingCheck.algCode} will no longer be checked for liveness at all.`
              : `Captures with ${removingCheck.algCode} will no longer get this check; the other liveness checks stay.`}
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  )
}

function AlgorithmCard({
  algorithm,
  busyKey,
  onAddLiveness,
  onRemoveLiveness,
  onRemove,
}: {
  algorithm: AlgorithmAssociation
  busyKey: string | null
  onAddLiveness: (code: string) => Promise<boolean>
  onRemoveLiveness: (code: string) => void
  onRemove: () => void
}) {
  const titleId = useId()
  const license = algorithm.licenseData
  const expired = typeof license?.expireDate === 'number' && license.expireDate < Date.now()

  return (
    <article className="staff-card" aria-labelledby={titleId} data-testid={`algorithm-${algorithm.code}`}>
      <h3 id={titleId}>{algorithm.code}</h3>
      {license ? (
        <dl className="staff-facts">
          <dt>Licence</dt>
          <dd>{license.info || '—'}</dd>
          <dt>Maximum identities</dt>
          <dd>{typeof license.maxIdentities === 'number' && license.maxIdentities > 0 ? license.maxIdentities : 'No limit'}</dd>
          <dt>Expires</dt>
          <dd>
            {typeof license.expireDate === 'number' ? formatDay(license.expireDate) : 'Never'}
            {expired ? <strong className="staff-warn"> (expired: enrollments with it are refused)</strong> : null}
          </dd>
        </dl>
      ) : (
        <dl className="staff-facts">
          <dt>Licence</dt>
          <dd>Not reported by this server</dd>
        </dl>
      )}
      <AlgorithmLiveness algCode={algorithm.code} codes={algorithm.liveness ?? []} busyKey={busyKey} onAdd={onAddLiveness} onRemove={onRemoveLiveness} />
      <div className="actions">
        <Button variant="danger" aria-label={`Remove algorithm ${algorithm.code}`} disabled={busyKey !== null} onClick={onRemove}>
          Remove algorithm
        </Button>
      </div>
    </article>
  )
}

function AssociateAlgorithmForm({
  listId,
  busy,
  disabled,
  onAssociate,
}: {
  listId: string | undefined
  busy: boolean
  disabled: boolean
  onAssociate: (algCode: string, licenseData: LicenseData | undefined) => Promise<boolean>
}) {
  const [code, setCode] = useState('')
  const [info, setInfo] = useState('')
  const [max, setMax] = useState('')
  const [expiry, setExpiry] = useState('')
  const [problems, setProblems] = useState<{ code?: string | null; max?: string; expiry?: string }>({})

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const algCode = code.trim()
    const maxValue = max.trim() === '' ? null : Number(max)
    const expireDate = expiry === '' ? null : dayToEpochMs(expiry)
    const found = {
      code: codeError(algCode),
      max: maxValue !== null && (!Number.isInteger(maxValue) || maxValue < 0) ? 'Enter a whole number, 0 or more, or leave it empty.' : undefined,
      expiry: expiry !== '' && expireDate === null ? 'Enter a date, or leave it empty.' : undefined,
    }
    setProblems(found)
    if (found.code || found.max || found.expiry) return
    const licenseData: LicenseData = {
      ...(info.trim() ? { info: info.trim() } : {}),
      ...(maxValue !== null ? { maxIdentities: maxValue } : {}),
      ...(expireDate !== null ? { expireDate } : {}),
    }
    if (await onAssociate(algCode, Object.keys(licenseData).length > 0 ? licenseData : undefined)) {
      setCode('')
      setInfo('')
      setMax('')
      setExpiry('')
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <fieldset className="staff-fieldset">
        <legend>Associate an algorithm</legend>
        <Field label="Algorithm code" value={code} onChange={(e) => setCode(e.target.value)} list={listId} hint="The plugin name, e.g. HumanFaceRes." error={problems.code} autoComplete="off" />
        <Field label="Licence information" value={info} onChange={(e) => setInfo(e.target.value)} hint="Optional: a licence number or note." autoComplete="off" />
        <Field label="Licence: maximum identities" type="number" inputMode="numeric" min={0} step={1} value={max} onChange={(e) => setMax(e.target.value)} hint="Optional. Empty or 0: no limit." error={problems.max} />
        <Field label="Licence: expires on" type="date" value={expiry} onChange={(e) => setExpiry(e.target.value)} hint="Optional. From this day on, enrollments with the algorithm are refused." error={problems.expiry} />
        <Button type="submit" busy={busy} disabled={disabled}>
          Associate algorithm
        </Button>
      </fieldset>
    </form>
  )
}
