import { useTranslation } from 'react-i18next'
import type { HostName } from '@shared/visits'
import { Field } from '../../components/ui'
import { SelectField } from '../staff/controls'

/** Whom the visitor comes to see and why; `noneLabel` names the empty choice ("same as last time" for a returning visitor). */
export function HostFields({ hosts, hostId, purpose, noneLabel, onHost, onPurpose }: { hosts: HostName[]; hostId: string; purpose: string; noneLabel: string; onHost: (id: string) => void; onPurpose: (purpose: string) => void }) {
  const { t } = useTranslation()
  return (
    <>
      {hosts.length > 0 ? (
        <SelectField label={t('visit.host')} value={hostId} onChange={(e) => onHost(e.target.value)} options={[{ value: '', label: noneLabel }, ...hosts.map((h) => ({ value: h.id, label: h.name }))]} data-testid="visit-host" />
      ) : null}
      <Field label={t('visit.purpose')} value={purpose} maxLength={200} autoComplete="off" onChange={(e) => onPurpose(e.target.value)} data-testid="visit-purpose" />
    </>
  )
}
