import type { z } from 'zod'
import { KioskError } from '../../shared/errors'
import type {
  appUserInput,
  AppUserResult,
  checkSamplesInput,
  CheckSamplesResult,
  deleteTemplatesInput,
  findPersonInput,
  PersonDetail,
  personTemplatesInput,
  searchPersonsInput,
} from '../../shared/workflows'
import type { Page, Person, TenantPerson } from '../../shared/api-models'
import type { Backend } from '../backend'

/**
 * The kiosk tenant's users, searched, sorted and paged by the person server, each with the template
 * types they hold (Persons shows enrollment per type). A server whose user records do not list them
 * is asked per user (GET /persons/{id}/biometrics); where that fails, the row keeps null.
 */
export async function searchPersons(backend: Backend, input: z.infer<typeof searchPersonsInput>): Promise<Page<TenantPerson>> {
  const page = await backend.persons.tenantPersons(backend.tenantCode, input)
  const content = await Promise.all(
    page.content.map(async (person) => {
      if (person.templateTypes !== null) return person
      const templates = await backend.bio.biometrics(person.uuid).catch(() => null)
      return { ...person, templateTypes: templates ? [...new Set(templates.map((t) => t.templateType))].sort() : null }
    }),
  )
  return { ...page, content }
}

/** A staff look-up by e-mail or by device identifier (reference §4.2). */
export async function findPerson(backend: Backend, input: z.infer<typeof findPersonInput>): Promise<{ person: Person | null }> {
  const person = 'userId' in input ? await backend.persons.findPersonByUserId(input.userId) : await backend.persons.findPersonByDeviceId(input.deviceId)
  return { person }
}

/** App user data (reference §4.2) for the kiosk's app, or another app staff name. */
export async function appUser(backend: Backend, input: z.infer<typeof appUserInput>): Promise<AppUserResult> {
  const appCode = input.appCode ?? backend.appCode
  const by = 'userId' in input ? { userId: input.userId } : { deviceId: input.deviceId }
  return { appCode, user: await backend.persons.appUser(appCode, by) }
}

/** One person with their tenants, their status in this tenant and their templates. */
export async function personDetail(backend: Backend, personUuid: string): Promise<PersonDetail> {
  const person = await backend.persons.getPerson(personUuid)
  if (!person) throw new KioskError('NOT_FOUND', 'This person no longer exists.')
  const [tenants, inTenant, templates] = await Promise.all([
    backend.persons.personTenants(personUuid),
    backend.persons.tenantPerson(backend.tenantCode, personUuid),
    backend.bio.biometrics(personUuid),
  ])
  return { person, tenants, inTenant, templates }
}

/** A person's templates: all of them, or those of one type (the BioEngine's by-type call). */
export function personTemplates(backend: Backend, input: z.infer<typeof personTemplatesInput>) {
  return backend.bio.biometrics(input.personUuid, input.templateType)
}

export async function deleteTemplates(backend: Backend, input: z.infer<typeof deleteTemplatesInput>): Promise<{ remaining: number }> {
  if (input.templateContext !== undefined && input.templateType === undefined) {
    throw new KioskError('INVALID_INPUT', 'A template context needs its template type.')
  }
  await backend.bio.deleteBiometrics(input.personUuid, input.templateType, input.templateContext)
  return { remaining: (await backend.bio.biometrics(input.personUuid)).length }
}

/**
 * "Check these photos without enrolling": the BioEngine makes a template (create template) and
 * reports its quality. The template is dropped here; only its size reaches the screen.
 */
export async function checkSamples(backend: Backend, input: z.infer<typeof checkSamplesInput>): Promise<CheckSamplesResult> {
  const created = await backend.bio.createTemplate(backend.templateType, input.samples)
  return { templateType: backend.templateType, quality: created.quality ?? null, templateBytes: Buffer.from(created.templatedata, 'base64').length }
}
