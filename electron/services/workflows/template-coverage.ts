import type { TenantPerson } from '../../shared/api-models'
import { KioskError } from '../../shared/errors'
import type { MigrateTemplatesResult, TemplateCoverage } from '../../shared/workflows'
import type { Backend } from '../backend'

/** Persons asked for per page, and persons whose templates are listed at once. */
const PAGE_SIZE = 100
const CONCURRENCY = 4
/** A server that keeps announcing pages is not followed past this many persons. */
const MAX_PERSONS = 100_000

/**
 * How many of the tenant's enrolled visitors have no template of `templateType`: the ones a switch
 * to it leaves unrecognisable. Only reference calls: the tenant's users page by page, then each
 * one's templates (GET /persons/{id}/biometrics), so it counts the same on a vendor's servers.
 */
export async function templateCoverage(backend: Backend, templateType: string): Promise<TemplateCoverage> {
  const [persons, keepsFaceCrops] = await Promise.all([tenantPersons(backend), keepsCrops(backend)])
  let enrolled = 0
  let missing = 0
  await eachLimited(persons, CONCURRENCY, async (person) => {
    const types = new Set((await backend.bio.biometrics(person.uuid)).map((t) => t.templateType))
    if (types.size === 0) return
    enrolled++
    if (!types.has(templateType)) missing++
  })
  return { templateType, enrolled, missing, keepsFaceCrops }
}

/**
 * The migrate action: asks the BioEngine to recreate its caches from its database (POST
 * /createplugincache/{plugin} for the type's plugin, /createcache when the type names none). The
 * embedded engine builds the missing templates from the face crops a tenant keeps; a server
 * without crops rebuilds nothing. Counted before and after, so the answer says who must come back.
 */
export async function migrateTemplates(backend: Backend, templateType: string): Promise<MigrateTemplatesResult> {
  if (!(await backend.bio.templateTypes()).some((t) => t.templateType === templateType)) {
    throw new KioskError('NOT_FOUND', `The BioEngine does not offer ${templateType}, so no templates of it can be built. Choose one of the types it lists.`)
  }
  const before = await templateCoverage(backend, templateType)
  if (before.missing > 0) await backend.bio.createCache(pluginOf(templateType))
  const after = before.missing > 0 ? await templateCoverage(backend, templateType) : before
  return { ...after, missingBefore: before.missing, rebuilt: Math.max(0, before.missing - after.missing) }
}

/** "A combination of a biometric type and a plugin name" (reference §4.4): the plugin is what follows the colon. */
function pluginOf(templateType: string): string | undefined {
  const plugin = templateType.slice(templateType.indexOf(':') + 1)
  return /^[A-Za-z0-9]{1,64}$/.test(plugin) ? plugin : undefined
}

async function tenantPersons(backend: Backend): Promise<TenantPerson[]> {
  const all: TenantPerson[] = []
  for (let pageNo = 0; all.length < MAX_PERSONS; pageNo++) {
    const page = await backend.persons.tenantPersons(backend.tenantCode, { pageNo, pageSize: PAGE_SIZE, sort: '+userId' })
    all.push(...page.content)
    if (page.content.length < PAGE_SIZE || pageNo + 1 >= page.totalPages) break
  }
  return all
}

async function keepsCrops(backend: Backend): Promise<boolean | null> {
  return (await backend.persons.getTenant(backend.tenantCode)).keepFaceCrops
}

async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const lane = async () => {
    while (next < items.length) await work(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
}
