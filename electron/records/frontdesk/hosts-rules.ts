import { randomUUID } from 'node:crypto'
import type { Host } from '../../shared/visits'
import type { FrontDesk } from './front-desk'
import type { RulesContext } from './records'
import type { HostFields } from './visit-types'

/** Only a host's own fields (a caller's object may carry more). */
const hostOf = (id: string, fields: HostFields): Host => ({ id, name: fields.name, email: fields.email, webhookUrl: fields.webhookUrl })

type HostRules = Pick<FrontDesk, 'listHosts' | 'getHost' | 'addHost' | 'updateHost' | 'removeHost'>

/** The site's hosts directory. A visit keeps its host's name as it was at check-in; an invite, as it was when made. */
export function hostRules(context: RulesContext): HostRules {
  const { records, now } = context
  return {
    listHosts: () => records.hosts.list(),
    getHost: (id) => records.hosts.get(id),
    async addHost(fields) {
      const host = hostOf(randomUUID(), fields)
      await records.hosts.insert(host.id, host, now())
      return host
    },
    async updateHost(id, fields) {
      const host = hostOf(id, fields)
      return (await records.hosts.update(id, host)) ? host : null
    },
    removeHost: (id) => records.hosts.remove(id),
  }
}
