import { join } from 'node:path'
import { createFrontDesk } from '../records/frontdesk/create-front-desk'
import type { FrontDesk } from '../records/frontdesk/front-desk'
import { frontDeskMigrations } from '../records/frontdesk/migrations'
import { migrate } from '../records/sql/migrate'
import { openPostgres } from '../records/sql/postgres'
import type { PairingCodeResult } from '../shared/frontdesk-api'
import type { PairArgs } from './args'
import { clusterConnection } from './postgres-cluster'

/** Who made a code, in the site's records, when it comes from the command line rather than a signed-in administrator. */
export const SITE_OPERATOR = 'site operator'

/**
 * `npm run site -- pair`: a one-time pairing code, made in the site's database as its engines would
 * make one for an administrator. The database is the site's private cluster, found in DATA/postgres
 * (its port file and passfile: the site must be running), or with --ha the primary through the
 * site's haproxy (DATA/ha: the same two files), or the external one named by --database
 * (its password in PGPASSFILE or PGPASSWORD, as for the site itself).
 */
export function makePairingCode(args: PairArgs): Promise<PairingCodeResult> {
  return withSiteFrontDesk(args, (frontDesk) => frontDesk.createPairingCode(SITE_OPERATOR))
}

/** `npm run site -- rotate-invite-key`: new invitation codes are signed with a new key; codes made before stay good until they expire. */
export function rotateInviteKey(args: PairArgs): Promise<string> {
  return withSiteFrontDesk(args, (frontDesk) => frontDesk.rotateInviteKey())
}

/** Runs `work` on the front desk of the site's database (found as makePairingCode says). */
async function withSiteFrontDesk<T>(args: PairArgs, work: (frontDesk: FrontDesk) => Promise<T>): Promise<T> {
  let url = args.database
  if (url === undefined) {
    // The private cluster (DATA/postgres), or with --ha the database port of the site's haproxy (DATA/ha).
    const cluster = clusterConnection(join(args.data, 'postgres')) ?? clusterConnection(join(args.data, 'ha'))
    if (!cluster) throw new Error(`${args.data} holds no site database (postgres/port or ha/port): give the folder the site runs in, or --database for a site on an external PostgreSQL`)
    url = cluster.url
    // The cluster's own password, as the site hands it to its engines; a PGPASSWORD for some other server would win over it.
    process.env.PGPASSFILE = cluster.passfile
    delete process.env.PGPASSWORD
  }
  const db = await openPostgres({ url, maxConnections: 1 })
  try {
    // The site's engines have applied it already; a no-op then, but this command does not rely on it.
    await migrate(db, frontDeskMigrations)
    return await work(createFrontDesk(db))
  } catch (error) {
    const refused = /ECONNREFUSED|unavailable|connect/i.test((error as Error).message)
    throw refused && args.database === undefined ? new Error(`the site's database is not running (start the site first): ${(error as Error).message}`) : error
  } finally {
    await db.close()
  }
}
