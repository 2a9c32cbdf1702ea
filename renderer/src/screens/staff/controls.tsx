import { useEffect, useId, useRef, type ReactNode, type SelectHTMLAttributes } from 'react'
import { Button, ErrorNotice, FieldFrame } from '../../components/ui'
import { useModalDialog } from '../../components/useModalDialog'

/** A labelled select, wired like ui.tsx's Field (hint and error described for screen readers). */
export function SelectField({
  label,
  hint,
  error,
  options,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; hint?: string; error?: string | null; options: ReadonlyArray<{ value: string; label: string }> }) {
  return (
    <FieldFrame
      label={label}
      hint={hint}
      error={error}
      control={(wiring) => (
        <select {...wiring} {...select}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    />
  )
}

/** Radio buttons in a fieldset whose legend names the choice. */
export function RadioGroup<V extends string>({
  legend,
  name,
  value,
  options,
  onChange,
  hint,
  error,
}: {
  legend: string
  name: string
  value: V
  options: ReadonlyArray<{ value: V; label: string; hint?: string }>
  onChange: (value: V) => void
  hint?: string
  error?: string | null
}) {
  const id = useId()
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined
  return (
    <fieldset className="radio-group" aria-describedby={describedBy}>
      <legend>{legend}</legend>
      {hint ? (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
      {options.map((o) => (
        <div key={o.value} className="radio">
          <input type="radio" id={`${id}-${o.value}`} name={name} value={o.value} checked={value === o.value} onChange={() => onChange(o.value)} aria-describedby={o.hint ? `${id}-${o.value}-hint` : undefined} />
          <label htmlFor={`${id}-${o.value}`}>{o.label}</label>
          {o.hint ? (
            <span id={`${id}-${o.value}-hint`} className="hint">
              {o.hint}
            </span>
          ) : null}
        </div>
      ))}
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}

/**
 * A modal confirmation for a destructive action, in the page (not window.confirm); staff's and the
 * visitor's alike, so every question of this kind behaves the same. Mount it to open it: focus moves
 * to the safe choice (Cancel, or what `cancelLabel` names), Tab stays inside, Escape dismisses
 * (`onDismiss`, else Cancel), and focus returns to where it was (or to the screen title if that
 * element is gone) when it closes. A visitor's screen passes its words in its own language.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  confirmVariant = 'danger',
  cancelLabel = 'Cancel',
  cancelVariant = 'secondary',
  busy = false,
  error = null,
  onConfirm,
  onCancel,
  onDismiss = onCancel,
}: {
  title: string
  children: ReactNode
  confirmLabel: string
  confirmVariant?: 'danger' | 'secondary'
  cancelLabel?: string
  /** 'primary' when the safe choice is also the one the screen wants made (check in rather than leave). */
  cancelVariant?: 'primary' | 'secondary'
  busy?: boolean
  error?: unknown
  onConfirm: () => void
  onCancel: () => void
  /** Escape: neither choice (stay where one was); Cancel's by default. */
  onDismiss?: () => void
}) {
  const dialog = useModalDialog()
  const id = useId()
  const busyRef = useRef(busy)
  useEffect(() => {
    busyRef.current = busy
  }, [busy])

  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onCancel={(event) => {
        // Escape: cancel, unless the action is already under way.
        event.preventDefault()
        if (!busyRef.current) onDismiss()
      }}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <div id={`${id}-body`}>{children}</div>
      {error ? <ErrorNotice error={error} /> : null}
      <div className="actions">
        <Button data-autofocus variant={cancelVariant} onClick={onCancel} disabled={busy}>
          {cancelLabel}
        </Button>
        <Button variant={confirmVariant} busy={busy} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </div>
    </dialog>
  )
}
