import type { Backend } from '../backend'
import type { Replica } from '../replica/replica'
import { appUser, checkSamples, deleteTemplates, findPerson, personDetail, personTemplates, searchPersons } from '../workflows/persons'
import { removeVisitor } from '../workflows/remove-visitor'
import type { Feature } from './feature'
import type { InvitesFeature } from './invites'

/** Staff's view of the tenant's persons, their templates, and a visitor's removal (from the replica too). */
export function persons(deps: { backend: () => Promise<Backend>; replica: Pick<Replica, 'forget'>; invites: Pick<InvitesFeature, 'forget'> }): Feature {
  const { backend } = deps
  return {
    handlers: {
      searchPersons: async (input) => searchPersons(await backend(), input),
      getPersonDetail: async (input) => personDetail(await backend(), input.personUuid),
      findPerson: async (input) => findPerson(await backend(), input),
      getAppUser: async (input) => appUser(await backend(), input),
      getPersonTemplates: async (input) => personTemplates(await backend(), input),
      deleteTemplates: async (input) => deleteTemplates(await backend(), input),
      checkSamples: async (input) => checkSamples(await backend(), input),
      removeVisitor: async (input) => {
        const result = await removeVisitor(await backend(), input.userId)
        await deps.replica.forget(input.userId)
        deps.invites.forget(input.userId)
        return result
      },
    },
  }
}
