import { useId, type ButtonHTMLAttributes, type ComponentPropsWithRef, type ReactNode } from 'react'
import { KioskError } from '@shared/errors'
import { staffNextStep } from '@shared/visitor-errors'
import { t } from '../i18n'
import { useSession } from '../store/session'

/** A button that can show it is working; busy buttons stay focusable but do nothing. */
export function Button({
  variant = 'primary',
  busy = false,
  children,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: 'primary' | 'secondary' | 'danger'; busy?: boolean }) {
  return (
    <button type="button" {...rest} className={`btn btn-${variant} ${rest.className ?? ''}`} aria-busy={busy || undefined} disabled={rest.disabled || busy}>
      {busy ? <span className="spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  )
}

/** What a form control needs to be labelled and described: its id and aria attributes. */
export interface ControlWiring {
  id: string
  'aria-invalid': true | undefined
  'aria-describedby': string | undefined
}

/** Label, control, hint and error, wired for screen readers; `control` renders the input itself. */
export function FieldFrame({ label, hint, error, control }: { label: string; hint?: string | undefined; error?: string | null | undefined; control: (wiring: ControlWiring) => ReactNode }) {
  const id = useId()
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {control({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint ? (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  )
}

/** A labelled input with its hint and error wired for screen readers. */
export function Field({ label, hint, error, ...input }: ComponentPropsWithRef<'input'> & { label: string; hint?: string; error?: string | null }) {
  return <FieldFrame label={label} hint={hint} error={error} control={(wiring) => <input {...wiring} {...input} />} />
}

/** A check box on the line of its words (the words wrap beside it), with a hint under them wired for screen readers. */
export function CheckField({ label, hint, checked, onChange }: { label: ReactNode; hint?: ReactNode; checked: boolean; onChange: (checked: boolean) => void }) {
  const id = useId()
  return (
    <div className="field check-field">
      <label>
        <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} aria-describedby={hint ? `${id}-hint` : undefined} />
        <span>{label}</span>
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
    </div>
  )
}

/** A message block; errors are announced as alerts. */
export function Notice({ kind, title, children }: { kind: 'info' | 'success' | 'warning' | 'error'; title?: string; children?: ReactNode }) {
  return (
    <div className={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {title ? <strong>{title}</strong> : null}
      {children ? <div>{children}</div> : null}
    </div>
  )
}

/** Shown while something takes more than a moment. */
export function Busy({ label }: { label: string }) {
  return (
    <p className="busy" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {label}
    </p>
  )
}

/** Plain words for any error: its message and, where we know one, what to do next. */
export function describeError(error: unknown): { message: string; next: string | null } {
  if (error instanceof KioskError) return { message: error.message, next: staffNextStep(error.code) }
  return { message: 'Something went wrong.', next: 'Try again; if it keeps happening, ask staff.' }
}

/**
 * The words a visitor reads for any error, by its code, in the visitor's language (an unexpected
 * error counts as INTERNAL). The services already send visitors only plain words
 * (electron/shared/visitor-errors.ts); the page says them again in the visitor's language.
 */
export function visitorMessage(error: unknown): string {
  const code = error instanceof KioskError ? error.code : 'INTERNAL'
  return code in visitorErrorKeys ? t(visitorErrorKeys[code as keyof typeof visitorErrorKeys]) : t('errors.default')
}

const visitorErrorKeys = {
  INVALID_INPUT: 'errors.INVALID_INPUT',
  FORBIDDEN: 'errors.FORBIDDEN',
  NO_FACE: 'errors.NO_FACE',
  MULTIPLE_FACES: 'errors.MULTIPLE_FACES',
  BAD_IMAGE: 'errors.BAD_IMAGE',
  ENGINE_UNAVAILABLE: 'errors.ENGINE_UNAVAILABLE',
  UNREACHABLE: 'errors.UNREACHABLE',
  TIMEOUT: 'errors.TIMEOUT',
  SERVER_ERROR: 'errors.SERVER_ERROR',
  LIVENESS_REQUIRED: 'errors.LIVENESS_REQUIRED',
  LIVENESS_FAILED: 'errors.LIVENESS_FAILED',
} as const

/**
 * An error as the screen's person may read it. A visitor gets the plain words the services use for
 * visitors, which say what to do; errors raised in the page itself (the host not answering) go
 * through the same words, so no internal text reaches a visitor. `children` (the ways on) follow the words.
 */
export function ErrorNotice({ error, title, children }: { error: unknown; title?: string; children?: ReactNode }) {
  const staff = useSession((s) => s.role !== 'visitor')
  const { message, next } = staff ? describeError(error) : { message: visitorMessage(error), next: null }
  return (
    <Notice kind="error" title={title ?? t('errors.failedTitle')}>
      <p>{message}</p>
      {next ? <p>{next}</p> : null}
      {children}
    </Notice>
  )
}

/** A load that failed: what went wrong, what to do, and a button to try again. */
export function LoadError({ error, title, onRetry }: { error: unknown; title: string; onRetry: () => void }) {
  return (
    <>
      <ErrorNotice error={error} title={title} />
      <Button variant="secondary" onClick={onRetry}>
        {t('common.tryAgain')}
      </Button>
    </>
  )
}
