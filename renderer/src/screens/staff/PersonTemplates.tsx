import { useRef, useState } from 'react'
import type { BiometricInfo } from '@shared/api-models'
import { kiosk } from '../../bridge/kiosk'
import { DataTable } from '../../components/DataTable'
import { Busy, Button, LoadError, Notice } from '../../components/ui'
import { ConfirmDialog, SelectField } from './controls'
import { formatBytes, formatDateTime, plural } from './format'
import { useAction, useLoad } from './hooks'
import { templateContextWords } from '@shared/template-context'

type Confirming = { kind: 'all' } | { kind: 'type'; templateType: string } | { kind: 'one'; template: BiometricInfo }

/**
 * A visitor's templates: all of them (from the detail), or those of one type (the BioEngine's
 * by-type call); the BioEngine's three deletes — one template, all of a type, all — each asked
 * first.
 */
export function PersonTemplates({
  personUuid,
  userId,
  templates,
  refreshing,
  onChanged,
}: {
  personUuid: string
  userId: string
  /** All the visitor's templates, as the detail loaded them. */
  templates: BiometricInfo[]
  refreshing: boolean
  /** After a delete: reload the detail (and the list beside it). */
  onChanged: () => void
}) {
  const [filter, setFilter] = useState('')
  const [version, setVersion] = useState(0)
  const filtered = useLoad(() => (filter ? kiosk.getPersonTemplates({ personUuid, templateType: filter }) : Promise.resolve(null)), `${filter}#${version}`)
  const [confirming, setConfirming] = useState<Confirming | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const action = useAction()
  const heading = useRef<HTMLHeadingElement>(null)

  const types = [...new Set([...templates.map((t) => t.templateType), ...(filter ? [filter] : [])])].sort()
  const shown = filter ? (filtered.data ?? []) : templates
  const loadingShown = filter !== '' && filtered.loading && !filtered.data

  const open = (next: Confirming) => {
    setDone(null)
    action.clear()
    setConfirming(next)
  }

  const confirm = async () => {
    if (!confirming) return
    const input =
      confirming.kind === 'one'
        ? { personUuid, templateType: confirming.template.templateType, templateContext: confirming.template.templateContext }
        : confirming.kind === 'type'
          ? { personUuid, templateType: confirming.templateType }
          : { personUuid }
    const outcome = await action.run(() => kiosk.deleteTemplates(input))
    if (!outcome.ok) return
    const what =
      confirming.kind === 'one'
        ? `The ${confirming.template.templateType} template “${confirming.template.templateContext}” was deleted.`
        : confirming.kind === 'type'
          ? `All ${confirming.templateType} templates were deleted.`
          : 'All templates were deleted.'
    setConfirming(null)
    setDone(`${what} ${plural(outcome.value.remaining, 'template')} left.`)
    if (confirming.kind !== 'one') setFilter('')
    setVersion((v) => v + 1)
    onChanged()
    // The button that opened the dialog may be gone with its row: continue from the list's heading.
    requestAnimationFrame(() => heading.current?.focus())
  }

  const count = (type: string) => templates.filter((t) => t.templateType === type).length

  return (
    <section aria-labelledby="person-templates-title">
      <h3 id="person-templates-title" ref={heading} tabIndex={-1}>
        Templates
      </h3>
      <div aria-live="polite">{done ? <Notice kind="success">{done}</Notice> : null}</div>
      {refreshing ? <Busy label="Refreshing…" /> : null}
      {templates.length === 0 ? (
        <p>No templates: this visitor cannot be verified or identified until they are enrolled again.</p>
      ) : (
        <>
          <SelectField
            label="Show templates of type"
            value={filter}
            onChange={(e) => {
              setDone(null)
              setFilter(e.target.value)
            }}
            options={[{ value: '', label: `All types (${templates.length})` }, ...types.map((type) => ({ value: type, label: `${type} (${count(type)})` }))]}
            hint="Choose a type to ask the BioEngine for that type only, and to delete all of its templates at once."
          />
          {loadingShown ? <Busy label={`Loading the ${filter} templates…`} /> : null}
          {filter && filtered.error ? <LoadError error={filtered.error} title={`The ${filter} templates could not be loaded`} onRetry={() => void filtered.reload()} /> : null}
          {filter && filtered.data && filtered.data.length === 0 ? <p>No {filter} templates.</p> : null}
          {shown.length > 0 ? (
            <DataTable
              caption={filter ? `${filter} templates of ${userId}` : `Templates of ${userId}`}
              captionHidden
              testId="templates"
              rows={shown}
              rowKey={(t) => `${t.templateType}/${t.templateContext}`}
              columns={[
                { header: 'Type', rowHeader: true, cell: (t) => t.templateType },
                { header: 'Enrolled as', cell: (t) => <ContextWords context={t.templateContext} /> },
                { header: 'Size', cell: (t) => formatBytes(t.size) },
                { header: 'Made', cell: (t) => formatDateTime(t.timestamp) },
                {
                  header: null,
                  actions: true,
                  cell: (t) => (
                    <Button variant="secondary" className="btn-small" aria-label={`Delete the ${t.templateType} template ${t.templateContext}`} onClick={() => open({ kind: 'one', template: t })}>
                      Delete
                    </Button>
                  ),
                },
              ]}
            />
          ) : null}
        </>
      )}

      <div className="actions">
        {filter ? (
          <Button variant="secondary" disabled={count(filter) === 0} onClick={() => open({ kind: 'type', templateType: filter })}>
            Delete all {filter} templates
          </Button>
        ) : null}
        <Button variant="secondary" disabled={templates.length === 0} onClick={() => open({ kind: 'all' })}>
          Delete all templates
        </Button>
      </div>

      {confirming ? (
        <ConfirmDialog
          title={
            confirming.kind === 'all'
              ? `Delete all templates of ${userId}?`
              : confirming.kind === 'type'
                ? `Delete all ${confirming.templateType} templates of ${userId}?`
                : `Delete this template of ${userId}?`
          }
          confirmLabel={confirming.kind === 'all' ? 'Delete all templates' : confirming.kind === 'type' ? `Delete all ${confirming.templateType} templates` : 'Delete template'}
          busy={action.busy}
          error={action.error}
          onCancel={() => setConfirming(null)}
          onConfirm={() => void confirm()}
        >
          {confirming.kind === 'all' ? (
            <p>
              All {plural(templates.length, 'template')} are deleted for good. {userId} can no longer be verified or identified until they are enrolled again.
            </p>
          ) : confirming.kind === 'type' ? (
            <p>
              All {plural(count(confirming.templateType), `${confirming.templateType} template`)} are deleted for good.
              {count(confirming.templateType) === templates.length ? ` They are all ${userId} has: they can no longer be verified or identified until they are enrolled again.` : ''}
            </p>
          ) : (
            <p>
              The {confirming.template.templateType} template “{confirming.template.templateContext}” is deleted for good.
              {templates.length === 1 ? ` It is the only one: ${userId} can no longer be verified or identified until they are enrolled again.` : ''}
            </p>
          )}
        </ConfirmDialog>
      ) : null}
    </section>
  )
}

/** A template's context in words (a kiosk enrollment, not "outbox-<uuid>"), with a short reference to tell two apart. */
function ContextWords({ context }: { context: string }) {
  const { words, reference } = templateContextWords(context)
  return (
    <>
      {words}
      {reference ? <span className="hint mono"> ref. {reference}</span> : null}
    </>
  )
}
