import { useState, type FormEvent } from 'react'
import type { Person } from '@shared/api-models'
import { kiosk } from '../../bridge/kiosk'
import { Button, ErrorNotice, Field, Notice } from '../../components/ui'
import { useAction } from './hooks'

/** Staff look-up of the person a device belongs to (the person server's look-up by device ID). */
export function DeviceLookup({ onFound }: { onFound: (person: Person) => void }) {
  const [deviceId, setDeviceId] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [outcome, setOutcome] = useState<{ deviceId: string; person: Person | null } | null>(null)
  const lookup = useAction()

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setOutcome(null)
    const value = deviceId.trim()
    if (value === '') {
      setProblem('Enter a device ID.')
      lookup.clear()
      return
    }
    setProblem(null)
    const result = await lookup.run(() => kiosk.findPerson({ deviceId: value }))
    if (!result.ok) return
    setOutcome({ deviceId: value, person: result.value.person })
    if (result.value.person) onFound(result.value.person)
  }

  return (
    <>
      <form role="search" aria-label="Find by device ID" className="staff-toolbar" onSubmit={(e) => void submit(e)} noValidate>
        <Field
          label="Device ID"
          type="search"
          value={deviceId}
          onChange={(e) => setDeviceId(e.target.value)}
          hint="Exact match; opens the visitor the device belongs to."
          error={problem}
          maxLength={128}
          autoComplete="off"
        />
        <Button type="submit" variant="secondary" busy={lookup.busy}>
          Look up device
        </Button>
      </form>
      <div aria-live="polite" data-testid="device-lookup-result">
        {lookup.error ? <ErrorNotice error={lookup.error} title="The device could not be looked up" /> : null}
        {outcome ? (
          outcome.person ? (
            <Notice kind="success">
              Device “{outcome.deviceId}” belongs to {outcome.person.userId}: their details are open.
            </Notice>
          ) : (
            <Notice kind="warning" title={`Nobody has device ID “${outcome.deviceId}”.`}>
              Check the identifier: it must match exactly.
            </Notice>
          )
        ) : null}
      </div>
    </>
  )
}
