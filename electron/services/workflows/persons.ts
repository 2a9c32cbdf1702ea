import type { z } from 'zod'
import { KioskError } from '../../shared/errors'
import type { deleteTemplatesInput, PersonDetail, searchPersonsInput } from '../../shared/workflows'
import type { Backend } from '../backend'

/** The kiosk tenant's users, searched, sorted and paged by the person server. */
export function searchPersons(backend: Backend, input: z.infer<typeof searchPersonsInput>) {
  return backend.persons.tenantPersons(backend.tenantCode, input)
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

export async function deleteTemplates(backend: Backend, input: z.infer<typeof deleteTemplatesInput>): Promise<{ remaining: number }> {
  if (input.templateContext !== undefined && input.templateType === undefined) {
    throw new KioskError('INVALID_INPUT', 'A template context needs its template type.')
  }
  await backend.bio.deleteBiometrics(input.personUuid, input.templateType, input.templateContext)
  return { remaining: (await backend.bio.biometrics(input.personUuid)).length }
}
