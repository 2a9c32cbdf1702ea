import type { FrontDesk } from '../../records/frontdesk/front-desk'
import type { LocalFrontDesk } from '../../records/frontdesk/local'
import type { Database } from '../../records/sql/types'
import type { OpenedFrontDesk, OwnDesk } from '../front-desk/own-desk'

/**
 * What a kiosk on its own does to its own front desk's visits and invites itself, beside the desk's
 * calls: a site does all of this on its own (its engines purge; a site's forgets are staff's acts).
 */
export interface OwnVisitRecords extends Pick<OwnDesk, 'purgeVisitsBefore' | 'purgeInvitesBefore' | 'forgetPerson'> {
  /** Whether any visit began before `cutoff`: otherwise the retention has nothing to remove (and audits nothing). */
  anyCheckedInBefore(cutoff: number): Promise<boolean>
}

/**
 * The kiosk's own frontdesk.db, opened once for two users: the own desk (`open`, for ownDesk, whose
 * close closes it) and the few reads its upkeep needs beyond the desk (`frontDesk`). Opened on first
 * use; a failed open is not kept (the next call tries again), and a closed one opens again.
 */
export function sharedLocalFrontDesk(open: () => Promise<LocalFrontDesk>): {
  open(): Promise<OpenedFrontDesk>
  frontDesk(): Promise<FrontDesk>
  database(): Promise<Database>
  /** Closes the file, whoever opened it (the own desk may never have: the host notices' runner opens it at start). */
  close(): Promise<void>
} {
  let opening: Promise<LocalFrontDesk> | null = null
  const local = (): Promise<LocalFrontDesk> =>
    (opening ??= open().catch((error: unknown) => {
      opening = null
      throw error
    }))
  return {
    async open() {
      const current = local()
      const opened = await current
      return {
        frontDesk: opened.frontDesk,
        async close() {
          if (opening === current) opening = null
          await opened.close()
        },
      }
    },
    frontDesk: async () => (await local()).frontDesk,
    // Its rows as stored: what a kiosk brings to a site when it joins (records/frontdesk/merge-export.ts),
    // and the host notices' queue and settings (features/host-notices.ts).
    database: async () => (await local()).database,
    async close() {
      const current = opening
      opening = null
      await (await current?.catch(() => null))?.close()
    },
  }
}

/** The own desk's upkeep calls, and the read beside them. */
export function ownVisitRecords(own: OwnDesk, frontDesk: () => Promise<FrontDesk>): OwnVisitRecords {
  return {
    purgeVisitsBefore: (cutoff) => own.purgeVisitsBefore(cutoff),
    purgeInvitesBefore: (cutoff) => own.purgeInvitesBefore(cutoff),
    forgetPerson: (person) => own.forgetPerson(person),
    anyCheckedInBefore: async (cutoff) => (await (await frontDesk()).visitLog({ to: new Date(cutoff).toISOString() }, 0, 1)).total > 0,
  }
}
