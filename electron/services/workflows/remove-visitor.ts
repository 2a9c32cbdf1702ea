import type { RemoveVisitorResult } from '../../shared/workflows'
import type { Backend } from '../backend'

/**
 * The seed's delete rule (reference §4.2 rule 2): look the visitor up by userId, list their
 * tenants, leave this tenant, and delete the person (and their templates) only when no other
 * tenant holds them.
 */
export async function removeVisitor(backend: Backend, userId: string): Promise<RemoveVisitorResult> {
  const { persons, bio, tenantCode } = backend
  const person = await persons.findPersonByUserId(userId)
  if (!person) return { outcome: 'not-found', otherTenants: [] }
  const tenants = await persons.personTenants(person.uuid)
  if (tenants.some((t) => t.code === tenantCode)) await persons.disassociatePerson(tenantCode, person.uuid)
  const otherTenants = tenants.map((t) => t.code).filter((code) => code !== tenantCode)
  if (otherTenants.length > 0) return { outcome: 'disassociated', otherTenants }
  await bio.deleteBiometrics(person.uuid)
  await persons.deletePerson(person.uuid)
  return { outcome: 'deleted', otherTenants: [] }
}
