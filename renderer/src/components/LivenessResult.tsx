import { useTranslation } from 'react-i18next'
import type { KioskError } from '@shared/errors'
import { LIVENESS_LIMITS, type EvidenceStep, type LivenessOutcome } from '@shared/liveness'
import { useSession } from '../store/session'
import { Button, describeError, ErrorNotice, Notice, visitorMessage } from './ui'

const checkNames: Record<string, string> = { 'active-challenge': 'active challenge', 'screen-light': 'screen light', 'passive-pad': 'passive score' }

/** One line for a result's liveness outcome, in plain words. */
export function livenessWords(outcome: LivenessOutcome): string {
  switch (outcome.status) {
    case 'passed': {
      const names = outcome.checks.map((check) => checkNames[check.code] ?? check.code)
      return `Liveness: passed — ${names.length > 0 ? names.join(' and ') : 'checked'}`
    }
    case 'overridden':
      return `Liveness: overridden by staff — ${outcome.note ?? 'no reason given'}`
    case 'not-checked':
      return 'Liveness: not checked — a photo file cannot show a live person'
    case 'failed':
      return `Liveness: failed — ${outcome.note ?? 'the check did not pass'}`
  }
}

/** The liveness line of a result, with the honest label. Nothing at all when the tenant requires none (null). */
export function LivenessResult({ outcome }: { outcome: LivenessOutcome | null | undefined }) {
  if (!outcome) return null
  return (
    <div className="liveness-result">
      <p data-testid="liveness-result">{livenessWords(outcome)}.</p>
      <p className="hint">{LIVENESS_LIMITS}</p>
    </div>
  )
}

/** Duck-typed like the bridge's FORBIDDEN check: an error that crossed Electron's context bridge may have lost its class. */
export function isLivenessError(error: unknown): error is Pick<KioskError, 'code' | 'message'> {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined
  return code === 'LIVENESS_FAILED' || code === 'LIVENESS_REQUIRED'
}

/**
 * A capture's error, with the ways on the screen gives: "Try again" (`onRetry`: the camera again,
 * for a refused liveness check a new challenge) and "Cancel" (`onCancel`). A refused liveness check
 * says the services' plain words (they name what was not seen); anything else is the usual notice.
 */
export function CaptureError({
  error,
  title,
  onRetry,
  onCancel,
  notSeen = null,
}: {
  error: unknown
  title: string
  onRetry?: (() => void) | undefined
  onCancel?: (() => void) | undefined
  notSeen?: EvidenceStep | null | undefined
}) {
  const { t } = useTranslation()
  const staff = useSession((s) => s.role !== 'visitor')
  const actions =
    onRetry || onCancel ? (
      <div className="actions">
        {onRetry ? <Button onClick={onRetry}>{t('common.tryAgain')}</Button> : null}
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
        ) : null}
      </div>
    ) : null
  if (!isLivenessError(error)) {
    return (
      <ErrorNotice error={error} title={title}>
        {actions}
      </ErrorNotice>
    )
  }
  const { message, next } = staff ? describeError(error) : { message: visitorMessage(error), next: null }
  return (
    <Notice kind="error" title={t(error.code === 'LIVENESS_FAILED' ? 'liveness.failedTitle' : 'liveness.neededTitle')}>
      {notSeen ? <p data-testid="liveness-not-seen">{t(`liveness.notSeen.${notSeen}`)}</p> : null}
      <p data-testid="liveness-error">{message}</p>
      {next ? <p>{next}</p> : null}
      {actions}
    </Notice>
  )
}
