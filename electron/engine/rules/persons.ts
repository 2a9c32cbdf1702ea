import type { Biometrics } from '../bio/biometrics'
import { HttpError } from '../http/errors'
import type { Person } from '../store/persons'
import { UniqueViolationError } from '../../records/sql/types'
import type { Repositories, Store } from '../store/store'
import type { TenantPerson } from '../store/tenant-memberships'
import type { Tenant } from '../store/tenants'

/**
 * The person server's rules (reference §4.2), once, for every route and both databases: a userId
 * or deviceId is unique (the database's constraint answers 409, so two processes creating the same
 * person give one person and one 409), and a tenant's maxIdentities holds under the tenant's row
 * lock, taken in the same transaction as the association it guards.
 */

export async function tenantOf(repos: Repositories, code: string): Promise<Tenant> {
  const tenant = await repos.tenants.get(code)
  if (!tenant) throw new HttpError(404, `There is no tenant ${code}.`)
  return tenant
}

export async function personOf(repos: Repositories, uuid: string): Promise<Person> {
  const found = await repos.persons.byUuid(uuid)
  if (!found) throw new HttpError(404, 'No person has this UUID.')
  return found
}

/** Takes the tenant's row lock (404 without a tenant); the capacity check below must come after it. */
async function lockTenant(tx: Repositories, code: string): Promise<void> {
  if (!(await tx.tenants.lock(code))) throw new HttpError(404, `There is no tenant ${code}.`)
}

async function checkCapacity(tx: Repositories, code: string): Promise<void> {
  const tenant = (await tx.tenants.get(code))!
  if (tenant.maxIdentities > 0 && (await tx.memberships.personCount(code)) >= tenant.maxIdentities) {
    throw new HttpError(403, `Tenant ${code} already holds its maximum of ${tenant.maxIdentities} identities.`)
  }
}

/** Creates a person in a tenant. */
export async function createPerson(store: Store, code: string, userId: string, deviceId: string | null): Promise<Person> {
  try {
    return await store.transaction(async (tx) => {
      await lockTenant(tx, code)
      if (await tx.persons.byUserId(userId)) throw new UniqueViolationError('persons.user_id')
      if (deviceId && (await tx.persons.byDeviceId(deviceId))) throw new UniqueViolationError('persons.device_id')
      await checkCapacity(tx, code)
      const person = await tx.persons.insert(userId, deviceId)
      await tx.memberships.associatePerson(code, person.uuid)
      return person
    })
  } catch (error) {
    if (!(error instanceof UniqueViolationError)) throw error
    if (await store.persons.byUserId(userId)) throw new HttpError(409, 'A person with this userId already exists; look it up by userId and associate it.')
    throw new HttpError(409, 'A person with this deviceId already exists.')
  }
}

/** Associates an existing person with a tenant (nothing to do when they already belong to it). */
export async function joinTenant(store: Store, code: string, uuid: string): Promise<TenantPerson> {
  return store.transaction(async (tx) => {
    await lockTenant(tx, code)
    const person = await personOf(tx, uuid)
    if (!(await tx.memberships.isMember(code, person.uuid))) {
      await checkCapacity(tx, code)
      await tx.memberships.associatePerson(code, person.uuid)
    }
    return (await tx.memberships.tenantPerson(code, person.uuid))!
  })
}

/** Disassociates a person from a tenant; the face crops kept for it go unless another tenant keeps them. */
export async function leaveTenant(store: Store, code: string, uuid: string): Promise<void> {
  await store.transaction(async (tx) => {
    await tenantOf(tx, code)
    if (!(await tx.memberships.disassociatePerson(code, uuid))) throw new HttpError(404, `This person is not a user of tenant ${code}.`)
    await tx.crops.dropUnkept()
  })
}

/** Deletes a person with their templates and crops; identify forgets them on every process. */
export async function deletePerson(bio: Biometrics, uuid: string): Promise<Person> {
  return bio.write(async (tx) => {
    const person = await personOf(tx, uuid)
    await tx.persons.delete(person)
    return person
  })
}
