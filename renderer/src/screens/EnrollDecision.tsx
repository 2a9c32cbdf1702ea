import type { EnrollVisitorResult } from '@shared/workflows'
import { Button, Notice } from '../components/ui'

/** What staff decided after seeing the records: add to or replace the existing face, or enroll despite a matching face. */
export interface StaffDecision {
  onExisting?: 'add' | 'replace'
  acceptDuplicates?: true
}

type NeedsDecision = Extract<EnrollVisitorResult, { outcome: 'needs-decision' }>

/**
 * The enrollment stopped for staff: the e-mail's existing record and/or the persons whose face
 * matches, side by side, and the choices. Every choice is audited by the services.
 */
export function EnrollDecision({ result, onDecide, onCancel }: { result: NeedsDecision; onDecide: (decision: StaffDecision) => void; onCancel: () => void }) {
  const { existing, duplicates } = result
  const enrolled = existing !== null && existing.templates > 0
  const accept: StaffDecision = duplicates.length > 0 ? { acceptDuplicates: true } : {}
  return (
    <Notice kind="warning" title="Staff decision needed">
      <div id="result-title" data-testid="enroll-decision">
        {existing ? (
          <section aria-label="Existing record">
            <h3>This e-mail is already enrolled</h3>
            <p>
              {existing.person.userId} (person {existing.person.uuid}) has {existing.templates} face template{existing.templates === 1 ? '' : 's'}.{' '}
              {existing.sameFace ? 'The new photos match that face.' : 'The new photos do not match that face.'}
            </p>
          </section>
        ) : null}
        {duplicates.length > 0 ? (
          <section aria-label="Matching persons">
            <h3>The face matches {duplicates.length === 1 ? 'another person' : `${duplicates.length} other persons`}</h3>
            <ul>
              {duplicates.map((d) => (
                <li key={d.personUuid}>
                  {d.userId ?? 'no e-mail'} (person {d.personUuid}), score {d.score.toFixed(1)}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <div className="actions">
          {enrolled ? (
            <>
              <Button onClick={() => onDecide({ onExisting: 'add', ...accept })}>Add these photos to the record</Button>
              <Button variant="danger" onClick={() => onDecide({ onExisting: 'replace', ...accept })}>
                Replace the enrolled face
              </Button>
            </>
          ) : (
            <Button onClick={() => onDecide(accept)}>Enroll anyway</Button>
          )}
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </div>
    </Notice>
  )
}
