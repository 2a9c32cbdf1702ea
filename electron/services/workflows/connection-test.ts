import type { ConnectionTestResult, ConnectionTestStep } from '../../shared/workflows'
import { scaleLabel, scaleOf } from '../../shared/score-scale'
import type { KioskSettings } from '../../shared/settings'
import type { Backend } from '../backend'
import { reach } from '../clients/reach'

/**
 * Tries the configured servers step by step (token, template types, tenant) and reports each
 * step with its outcome and time, stopping at the first failure: later steps need the earlier ones.
 */
export async function testConnection(settings: KioskSettings, backend: () => Promise<Backend>): Promise<ConnectionTestResult> {
  const steps: ConnectionTestStep[] = []
  const step = async (name: ConnectionTestStep['name'], run: () => Promise<string>): Promise<boolean> => {
    const started = performance.now()
    try {
      steps.push({ name, ok: true, detail: await run(), ms: Math.round(performance.now() - started) })
      return true
    } catch (error) {
      steps.push({ name, ok: false, detail: error instanceof Error ? error.message : String(error), ms: Math.round(performance.now() - started) })
      return false
    }
  }
  let target: Backend | null = null
  const ok =
    (await step('servers', async () => {
      target = await backend()
      // Building clients contacts nobody: something must actually answer at each address.
      const urls = [...new Set([target.persons.http.baseUrl, target.bio.http.baseUrl])]
      await Promise.all(urls.map((url) => reach(url, settings.connectTimeoutSeconds * 1000)))
      return settings.mode === 'embedded' ? 'The embedded engine is running and answers.' : `${urls.join(' and ')} answer.`
    })) &&
    (await step('token', async () => {
      await target!.persons.tokens.get()
      return 'The person server issued a token for these credentials.'
    })) &&
    (await step('templateTypes', async () => {
      const types = await target!.bio.templateTypes()
      const chosen = types.find((t) => t.templateType === settings.templateType)
      if (!chosen) throw new Error(`${settings.templateType} is not installed; the BioEngine offers ${types.map((t) => t.templateType).join(', ') || 'none'}.`)
      const threshold = chosen.scoreThreshold === null ? 'no threshold given' : `threshold ${chosen.scoreThreshold} on a ${scaleLabel(scaleOf(chosen.scoreThreshold))} scale`
      return `${chosen.templateType}: ${threshold}, ${chosen.numSamplesForEnroll} sample(s) per enrollment.`
    })) &&
    (await step('tenant', async () => {
      const tenant = await target!.persons.getTenant(settings.tenantCode)
      return `Tenant ${tenant.code} (${tenant.name}).`
    }))
  return { ok, steps }
}
