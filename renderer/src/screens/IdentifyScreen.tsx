import { useState } from 'react'
import type { EvidenceStep } from '@shared/liveness'
import { formatScore, scaleLabel } from '@shared/score-scale'
import type { IdentifyVisitorResult } from '@shared/workflows'
import { kiosk } from '../bridge/kiosk'
import { DataTable } from '../components/DataTable'
import { GuidedCapture, type LivenessSend } from '../components/GuidedCapture'
import { CaptureError, isLivenessError, LivenessResult } from '../components/LivenessResult'
import { OfflineDecision } from '../components/OfflineDecision'
import { Busy, Button, Notice } from '../components/ui'
import { useStepFocus } from '../components/useStepFocus'
import { useNavigation } from '../store/navigation'
import { useSession } from '../store/session'
import { ScreenFrame } from './ScreenFrame'
import { formatMark } from './scores'

type Step = 'capture' | 'searching' | 'refused' | 'done'

/** Identify (1:N): ranked candidates at or above the threshold, or an explicit "no match". */
export function IdentifyScreen() {
  const [step, setStep] = useState<Step>('capture')
  const [result, setResult] = useState<IdentifyVisitorResult | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [notSeen, setNotSeen] = useState<EvidenceStep | null>(null)
  const go = useNavigation((s) => s.go)
  const staff = useSession((s) => s.role !== 'visitor')
  useStepFocus(step)

  const search = async (sample: string, liveness: LivenessSend) => {
    setStep('searching')
    setError(null)
    try {
      setResult(await kiosk.identifyVisitor({ sample, ...liveness }))
      setStep('done')
    } catch (caught) {
      // A liveness refusal stands alone: its "Try again" starts the next capture, not one under the message.
      setError(caught)
      setStep(isLivenessError(caught) ? 'refused' : 'capture')
    }
  }

  const mark = result ? `${formatMark(result.threshold, result.scaleMax)}${result.thresholdSource === 'settings' ? ' (the threshold set in Settings)' : ''}` : ''

  return (
    <ScreenFrame title="Who is this?" purpose="Find who a visitor is among everyone enrolled.">
      {error ? (
        <CaptureError
          error={error}
          title="The search did not run"
          notSeen={notSeen}
          // Only a refused liveness check stands alone; any other error has the camera under it, taking the photo again.
          onRetry={
            isLivenessError(error)
              ? () => {
                  setError(null)
                  setStep('capture')
                }
              : undefined
          }
        />
      ) : null}
      {step === 'capture' ? (
        <GuidedCapture
          count={1}
          label="Photo of the visitor"
          onDone={([sample], liveness, missed) => {
            setNotSeen(missed ?? null)
            if (sample) void search(sample.base64, liveness)
          }}
          onCancel={() => go('home')}
          fileFallback={staff}
          liveness={() => kiosk.startLivenessChallenge({ purpose: 'identify' })}
          livenessOverride={staff}
          fileSkipsLiveness
        />
      ) : null}
      {step === 'searching' ? <Busy label="Searching…" /> : null}
      {step === 'done' && result ? (
        <section aria-label="Result" tabIndex={-1} data-step-focus>
          <OfflineDecision offline={result.offline} />
          <LivenessResult outcome={result.liveness} />
          {result.decision === 'no-match' ? (
            <Notice kind="warning" title="No match">
              <p className="result" data-testid="identify-decision">
                Nobody enrolled scores {mark} or more against this face.
              </p>
            </Notice>
          ) : (
            <>
              {result.decision === 'tie' ? (
                <Notice kind="warning" title="No single match">
                  <p className="result" data-testid="identify-decision">
                    Two or more people score almost the same against this face, so the kiosk names none of them. Check the visitor’s identity another way.
                  </p>
                </Notice>
              ) : (
                <Notice kind="success" title="Match found">
                  <p className="result" data-testid="identify-decision">
                    Best match: {result.candidates[0]?.userId ?? result.candidates[0]?.personUuid}
                  </p>
                </Notice>
              )}
              <DataTable
                caption={`Candidates at or above ${mark}, best first (scores on a ${scaleLabel(result.scaleMax)} scale)`}
                rows={result.candidates}
                rowKey={(candidate) => candidate.personUuid}
                columns={[
                  { header: 'Rank', cell: (_, i) => i + 1 },
                  { header: 'Visitor', rowHeader: true, cell: (candidate) => candidate.userId ?? `(unknown: ${candidate.personUuid})` },
                  { header: 'Score', cell: (candidate) => formatScore(candidate.score, result.scaleMax) },
                ]}
              />
            </>
          )}
          <div className="actions">
            <Button
              onClick={() => {
                setResult(null)
                setStep('capture')
              }}
            >
              Identify someone else
            </Button>
          </div>
        </section>
      ) : null}
    </ScreenFrame>
  )
}
