import { useState, type FormEvent } from 'react'
import { isLivenessCode, LIVENESS_LIMITS, livenessChecks, livenessCodes, type LivenessCode } from '@shared/liveness'
import { Button } from '../../components/ui'
import { RadioGroup } from './controls'

/** The words for an associated code: the kiosk's title and description, or that the kiosk does not check it (a vendor's code). */
export function livenessCodeWords(code: string): { title: string; description: string } {
  if (isLivenessCode(code)) return livenessChecks[code]
  return { title: code, description: 'Not understood by this kiosk — not checked here.' }
}

/**
 * An algorithm's liveness checks: the ones associated (a code the kiosk does not know is listed as
 * such: it gives no protection here), and a choice among the checks this kiosk understands, with
 * the honest limits beside it.
 */
export function AlgorithmLiveness({
  algCode,
  codes,
  busyKey,
  onAdd,
  onRemove,
}: {
  algCode: string
  codes: readonly string[]
  busyKey: string | null
  onAdd: (code: LivenessCode) => Promise<boolean>
  onRemove: (code: string) => void
}) {
  const available = livenessCodes.filter((code) => !codes.includes(code))
  const [choice, setChoice] = useState<LivenessCode | ''>('')
  const [problem, setProblem] = useState<string | null>(null)
  const chosen = choice && available.includes(choice) ? choice : ''

  const add = async (event: FormEvent) => {
    event.preventDefault()
    if (!chosen) {
      setProblem('Choose a liveness check to add.')
      return
    }
    setProblem(null)
    if (await onAdd(chosen)) setChoice('')
  }

  return (
    <div className="algorithm-liveness">
      <h4>Liveness checks</h4>
      {codes.length === 0 ? (
        <p>None: captures for this tenant are not checked for liveness.</p>
      ) : (
        <ul className="liveness-list">
          {codes.map((code) => {
            const words = livenessCodeWords(code)
            return (
              <li key={code} data-testid={`liveness-${code}`}>
                <span className="liveness-words">
                  <strong>{words.title}</strong> <span className="hint">{isLivenessCode(code) ? words.description : `(${words.description})`}</span>
                </span>
                <Button
                  variant="secondary"
                  className="btn-small"
                  aria-label={`Remove liveness ${code} from ${algCode}`}
                  busy={busyKey === `liveness-remove:${algCode}:${code}`}
                  disabled={busyKey !== null}
                  onClick={() => onRemove(code)}
                >
                  Remove
                </Button>
              </li>
            )
          })}
        </ul>
      )}
      {available.length > 0 ? (
        <form className="liveness-add" onSubmit={(e) => void add(e)} noValidate>
          <RadioGroup<LivenessCode>
            legend={`Add a liveness check to ${algCode}`}
            name={`liveness-${algCode}`}
            value={chosen as LivenessCode}
            options={available.map((code) => ({ value: code, label: livenessChecks[code].title, hint: livenessChecks[code].description }))}
            onChange={setChoice}
            error={problem}
          />
          <Button type="submit" variant="secondary" busy={busyKey === `liveness-add:${algCode}`} disabled={busyKey !== null}>
            Add liveness
          </Button>
        </form>
      ) : (
        <p>Every check this kiosk understands is associated.</p>
      )}
      <p className="hint" data-testid="liveness-limits">
        {LIVENESS_LIMITS}
      </p>
    </div>
  )
}
