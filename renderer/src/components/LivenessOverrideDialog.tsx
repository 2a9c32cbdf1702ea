import { useId, useState, type FormEvent } from 'react'
import { livenessOverrideInput, type LivenessOverride } from '@shared/liveness'
import { Button, Field } from './ui'
import { useModalDialog } from './useModalDialog'

/**
 * Staff only: go on without the liveness check for a person who cannot do it. Asks for a short
 * reason (checked with the contract's schema); the services accept it from staff only and audit it.
 */
export function LivenessOverrideDialog({ onConfirm, onCancel }: { onConfirm: (override: LivenessOverride) => void; onCancel: () => void }) {
  const dialog = useModalDialog()
  const id = useId()
  const [reason, setReason] = useState('')
  const [problem, setProblem] = useState<string | null>(null)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const parsed = livenessOverrideInput.safeParse({ reason })
    if (!parsed.success) {
      setProblem(`Give a reason: ${parsed.error.issues[0]?.message ?? 'a few words'}.`)
      return
    }
    onConfirm(parsed.data)
  }

  return (
    <dialog
      ref={dialog}
      className="confirm-dialog lv-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onCancel={(event) => {
        event.preventDefault()
        onCancel()
      }}
    >
      <h2 id={`${id}-title`}>Continue without liveness check?</h2>
      <p id={`${id}-body`}>For a person who cannot do the check. Your account and the reason are recorded in the audit trail.</p>
      <form noValidate onSubmit={submit}>
        <Field data-autofocus label="Reason" hint="A few words, e.g. “cannot turn their head”." value={reason} onChange={(e) => setReason(e.target.value)} error={problem} maxLength={200} autoComplete="off" />
        <div className="actions">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit">Continue without liveness check</Button>
        </div>
      </form>
    </dialog>
  )
}
