import { kiosk } from '../bridge/kiosk'
import { Busy, LoadError } from '../components/ui'
import { EngineSection, pluginOf } from './staff/EngineAdmin'
import { useLoad } from './staff/hooks'
import { AlgorithmsSection } from './staff/TenantAlgorithms'
import { AppsSection } from './staff/TenantApps'
import { TenantSection } from './staff/TenantSection'
import { ScreenFrame } from './ScreenFrame'
import './staff/staff.css'

/** The kiosk's tenant (details, apps, algorithms with licences and liveness) and the BioEngine. */
export function AdminScreen() {
  const tenant = useLoad(() => kiosk.getTenant({}))
  const types = useLoad(() => kiosk.getTemplateTypes({}))
  const pluginNames = [...new Set((types.data ?? []).map((t) => pluginOf(t.templateType)))]

  return (
    <ScreenFrame staff title="Admin" purpose="The kiosk’s tenant on the person server, and the BioEngine behind it.">

      {tenant.loading && !tenant.data ? <Busy label="Loading the tenant…" /> : null}
      {tenant.error ? (
        <LoadError error={tenant.error} title="The tenant could not be loaded" onRetry={() => void tenant.reload()} />
      ) : null}
      {tenant.data ? (
        <div className="staff-sections">
          <TenantSection tenant={tenant.data} onChange={tenant.setData} />
          <AppsSection tenant={tenant.data} onChange={tenant.setData} />
          <AlgorithmsSection tenant={tenant.data} onChange={tenant.setData} pluginNames={pluginNames} />
        </div>
      ) : null}

      <EngineSection types={types.data} loading={types.loading} error={types.error} onReload={() => void types.reload()} />
    </ScreenFrame>
  )
}
