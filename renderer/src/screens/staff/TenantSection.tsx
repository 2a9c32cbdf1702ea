import { useState, type FormEvent } from 'react'
import type { Tenant } from '@shared/api-models'
import { kiosk } from '../../bridge/kiosk'
import { Button, CheckField, ErrorNotice, Field, Notice } from '../../components/ui'
import { fieldErrorsOf } from './format'
import { useAction } from './hooks'

/** Shows field errors next to their fields, and anything else (or any other error) as an ErrorNotice. */
function leftoverError(error: unknown, fields: readonly string[]): unknown {
  const parsed = fieldErrorsOf(error, fields)
  if (!parsed) return error
  return parsed.other.length > 0 || Object.keys(parsed.fields).length === 0 ? error : null
}

/** The tenant's name, identity limit and default post-back address. */
export function TenantSection({ tenant, onChange }: { tenant: Tenant; onChange: (tenant: Tenant) => void }) {
  const [name, setName] = useState(tenant.name)
  const [maxIdentities, setMaxIdentities] = useState(tenant.maxIdentities === null ? '' : String(tenant.maxIdentities))
  const [postBack, setPostBack] = useState(tenant.defaultPostBack ?? '')
  const [keepCrops, setKeepCrops] = useState(tenant.keepFaceCrops === true)
  const [local, setLocal] = useState<{ name?: string; maxIdentities?: string }>({})
  const [saved, setSaved] = useState(false)
  const save = useAction()
  const fields = ['name', 'maxIdentities', 'defaultPostBack'] as const
  const server = fieldErrorsOf(save.error, fields)?.fields ?? {}

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setSaved(false)
    const max = Number(maxIdentities)
    const problems = {
      name: name.trim() === '' ? 'Enter a name.' : undefined,
      maxIdentities: maxIdentities.trim() === '' || !Number.isInteger(max) || max < 0 ? 'Enter a whole number, 0 or more.' : undefined,
    }
    setLocal(problems)
    if (problems.name || problems.maxIdentities) {
      save.clear()
      return
    }
    const update = { name: name.trim(), maxIdentities: max, defaultPostBack: postBack.trim() === '' ? null : postBack.trim() }
    // Only a server that reports the setting (the embedded engine) is sent it.
    const outcome = await save.run(() => kiosk.updateTenant(tenant.keepFaceCrops === null ? update : { ...update, keepFaceCrops: keepCrops }))
    if (outcome.ok) {
      onChange(outcome.value)
      setSaved(true)
    }
  }

  return (
    <section className="staff-section" aria-labelledby="tenant-title">
      <h2 id="tenant-title">Tenant {tenant.code}</h2>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Field label="Name" value={name} onChange={(e) => setName(e.target.value)} maxLength={200} error={local.name ?? server.name} autoComplete="off" />
        <Field
          label="Maximum identities"
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          value={maxIdentities}
          onChange={(e) => setMaxIdentities(e.target.value)}
          hint={
            tenant.maxIdentities === null
              ? 'How many visitors this tenant may hold; 0 means no limit. The current limit is not reported by this server: enter one to save the tenant.'
              : 'How many visitors this tenant may hold; 0 means no limit.'
          }
          error={local.maxIdentities ?? server.maxIdentities}
        />
        <Field
          label="Default post-back address"
          type="url"
          value={postBack}
          onChange={(e) => setPostBack(e.target.value)}
          hint="Where the server reports results by default. Leave empty for none."
          error={server.defaultPostBack}
          autoComplete="off"
        />
        {tenant.keepFaceCrops !== null ? (
          <CheckField
            label="Keep face crops to rebuild templates"
            checked={keepCrops}
            onChange={setKeepCrops}
            hint="Off by default. When on, the engine keeps each new enrollment’s face crop, encrypted, so templates of another template type can be built without the visitor coming back. Turning it off deletes the kept crops."
          />
        ) : null}
        {leftoverError(save.error, fields) ? <ErrorNotice error={save.error} title="The tenant was not saved" /> : null}
        {saved ? <Notice kind="success">The tenant was saved.</Notice> : null}
        <div className="actions">
          <Button type="submit" busy={save.busy}>
            Save tenant
          </Button>
        </div>
      </form>
    </section>
  )
}
