import { useState } from 'react'
import type { MigrateTemplatesResult } from '@shared/workflows'
import { kiosk } from '../../bridge/kiosk'
import { Busy, Button, ErrorNotice, Notice } from '../../components/ui'
import { useNavigation } from '../../store/navigation'
import { useTypeFocus } from '../../store/type-focus'
import { plural } from './format'
import { useAction, useLoad } from './hooks'

/**
 * Shown while the template type in the form differs from the saved one, before it is saved: how
 * many enrolled visitors have no template of the new type (the services count them on the
 * servers), and the ways through — rebuild their templates from kept face crops, or see who they
 * are on the Persons screen.
 */
export function TemplateTypeChange({ from, to }: { from: string; to: string }) {
  const [version, setVersion] = useState(0)
  const coverage = useLoad(() => kiosk.getTemplateCoverage({ templateType: to }), `${to}#${version}`)
  const migrate = useAction()
  const [migrated, setMigrated] = useState<MigrateTemplatesResult | null>(null)
  const go = useNavigation((s) => s.go)
  const focusType = useTypeFocus((s) => s.focus)
  const data = coverage.data?.templateType === to ? coverage.data : null

  const rebuild = async () => {
    setMigrated(null)
    const outcome = await migrate.run(() => kiosk.migrateTemplates({ templateType: to }))
    if (!outcome.ok) return
    setMigrated(outcome.value)
    setVersion((v) => v + 1)
  }

  return (
    <div aria-live="polite" data-testid="template-type-change">
      {!data && coverage.loading ? <Busy label={`Counting the visitors with a ${to} template…`} /> : null}
      {!data && coverage.error ? (
        <Notice kind="warning" title={`Changing to ${to} may leave enrolled visitors unrecognised`}>
          The kiosk could not count them just now: check on the Persons screen which template types each visitor has before you save.
        </Notice>
      ) : null}
      {data && data.missing === 0 ? (
        <Notice kind="info" title={`Every enrolled visitor has a ${to} template`}>
          {data.enrolled === 0 ? 'Nobody is enrolled yet.' : `All ${plural(data.enrolled, 'enrolled visitor')} can still be verified and identified after the change from ${from}.`}
        </Notice>
      ) : null}
      {data && data.missing > 0 ? (
        <Notice kind="warning" title={`${plural(data.missing, 'enrolled visitor has', 'enrolled visitors have')} no ${to} template`}>
          <p>
            Once you save, the kiosk enrolls and matches with {to}: {data.missing === 1 ? 'this visitor' : `these ${data.missing} visitors`} (of{' '}
            {data.enrolled} enrolled) can no longer be verified or identified until their templates are rebuilt or they enroll again.
          </p>
          <p>
            {data.keepsFaceCrops === true
              ? `This tenant keeps face crops: the engine can build the ${to} templates from them without the visitors coming back.`
              : data.keepsFaceCrops === false
                ? 'This tenant keeps no face crops, so the templates cannot be rebuilt here: the visitors must enroll again (tenant administration can start keeping crops for new enrollments).'
                : 'Rebuilding asks the BioEngine to build them from what it keeps; whoever it cannot rebuild must enroll again.'}
          </p>
          <div className="actions">
            <Button variant="secondary" busy={migrate.busy} onClick={() => void rebuild()}>
              Rebuild {to} templates
            </Button>
            <Button
              variant="secondary"
              onClick={() => {
                // Persons shows who lacks the type changed to, beside the kiosk's own.
                focusType(to)
                go('persons')
              }}
            >
              See who on the Persons screen
            </Button>
          </div>
        </Notice>
      ) : null}
      {migrate.error ? <ErrorNotice error={migrate.error} title={`The ${to} templates were not rebuilt`} /> : null}
      {migrated ? <MigrateOutcome result={migrated} /> : null}
    </div>
  )
}

function MigrateOutcome({ result }: { result: MigrateTemplatesResult }) {
  const { templateType, rebuilt, missing } = result
  if (missing === 0) {
    return (
      <Notice kind="success" title={`${plural(rebuilt, 'visitor')} now ${rebuilt === 1 ? 'has' : 'have'} a ${templateType} template`}>
        Built from their kept face crops, without new photos. You can save the change now.
      </Notice>
    )
  }
  return (
    <Notice kind="warning" title={`${plural(missing, 'visitor')} must enroll again`}>
      {rebuilt > 0 ? `${plural(rebuilt, 'template')} ${rebuilt === 1 ? 'was' : 'were'} rebuilt from kept face crops. ` : 'No template could be rebuilt: '}
      {missing === 1 ? 'one visitor has' : `${missing} visitors have`} no kept face crop to build a {templateType} template from; they must come back to enroll.
    </Notice>
  )
}
