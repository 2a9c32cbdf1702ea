import { useState } from 'react'
import type { TemplateTypeInfo } from '@shared/api-models'
import { kiosk } from '../../bridge/kiosk'
import { DataTable } from '../../components/DataTable'
import { Busy, Button, ErrorNotice, Notice, LoadError } from '../../components/ui'
import { markOnScale } from '../scores'
import { SelectField } from './controls'
import { formatBytes } from './format'
import { useAction } from './hooks'
import { base64Bytes, saveFile } from './save-file'
import { PhotoQualityCheck } from './PhotoQualityCheck'

/** 'Face:HumanFaceRes' → 'HumanFaceRes': the plugin a template type belongs to. */
export const pluginOf = (templateType: string): string => templateType.slice(templateType.indexOf(':') + 1)

/** The BioEngine: installed template types, a photo quality check, template cache rebuilds, the logs for troubleshooting. */
export function EngineSection({ types, loading, error, onReload }: { types: TemplateTypeInfo[] | null; loading: boolean; error: unknown; onReload: () => void }) {
  const [plugin, setPlugin] = useState('')
  const rebuild = useAction()
  const logs = useAction()
  const [rebuilt, setRebuilt] = useState<string | null>(null)
  const [downloaded, setDownloaded] = useState<string | null>(null)
  const plugins = [...new Set((types ?? []).map((t) => pluginOf(t.templateType)))]

  const runRebuild = async () => {
    setRebuilt(null)
    const outcome = await rebuild.run(() => kiosk.rebuildCaches(plugin ? { pluginName: plugin } : {}))
    if (outcome.ok) setRebuilt(plugin ? `The ${plugin} cache was rebuilt from the database.` : 'Every plugin’s cache was rebuilt from the database.')
  }

  const download = async () => {
    setDownloaded(null)
    const outcome = await logs.run(() => kiosk.getEngineLogs({}))
    if (outcome.ok) {
      saveFile(outcome.value.fileName, base64Bytes(outcome.value.contentBase64), 'application/zip')
      setDownloaded(`Downloaded ${outcome.value.fileName} (${formatBytes(outcome.value.bytes)}).`)
    }
  }

  return (
    <section className="staff-section" aria-labelledby="engine-title">
      <h2 id="engine-title">BioEngine</h2>

      <h3>Template types</h3>
      {loading ? <Busy label="Loading template types…" /> : null}
      {error ? (
        <LoadError error={error} title="The template types could not be loaded" onRetry={onReload} />
      ) : null}
      {types ? (
        types.length === 0 ? (
          <p>The BioEngine offers no template type.</p>
        ) : (
          <DataTable
            caption="Template types the BioEngine offers"
            captionHidden
            testId="template-types"
            rows={types}
            rowKey={(t) => t.templateType}
            columns={[
              { header: 'Template type', rowHeader: true, cell: (t) => t.templateType },
              { header: 'Score threshold', cell: (t) => (t.scoreThreshold === null ? 'Not given' : markOnScale(t.scoreThreshold)) },
              { header: 'Samples per enrollment', cell: (t) => t.numSamplesForEnroll },
              { header: 'Loaded', cell: (t) => (t.isInstantiated === null ? 'Not reported' : t.isInstantiated ? 'Yes' : 'Not yet (loads on first use)') },
            ]}
          />
        )
      ) : null}

      <PhotoQualityCheck />

      <h3>Template caches</h3>
      <p className="hint">Identification searches an in-memory copy of the templates. Rebuild it if results look out of date.</p>
      <div className="staff-inline-form">
        <SelectField
          label="Caches to rebuild"
          value={plugin}
          onChange={(e) => setPlugin(e.target.value)}
          options={[{ value: '', label: 'All plugins' }, ...plugins.map((p) => ({ value: p, label: p }))]}
        />
        <Button onClick={() => void runRebuild()} busy={rebuild.busy}>
          Rebuild caches
        </Button>
      </div>
      {rebuild.busy ? <Busy label="Rebuilding…" /> : null}
      {rebuild.error ? <ErrorNotice error={rebuild.error} title="The caches were not rebuilt" /> : null}
      {rebuilt ? <Notice kind="success">{rebuilt}</Notice> : null}

      <h3>Logs</h3>
      <p className="hint">A zip of the BioEngine’s and its plugins’ log files, for troubleshooting.</p>
      <div className="actions">
        <Button variant="secondary" onClick={() => void download()} busy={logs.busy}>
          Download logs
        </Button>
      </div>
      {logs.busy ? <Busy label="Collecting the logs…" /> : null}
      {logs.error ? <ErrorNotice error={logs.error} title="The logs could not be downloaded" /> : null}
      {downloaded ? <Notice kind="success">{downloaded}</Notice> : null}
    </section>
  )
}
