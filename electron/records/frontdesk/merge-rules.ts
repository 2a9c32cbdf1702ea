import type { KeptApart, KioskRecords, SiteKiosk } from '../../shared/frontdesk-api'
import type { Sql } from '../sql/types'
import { newKeyId } from './invite-keyring'
import { InviteKeyRepository } from './invite-keys-repository'
import { MergeRepository } from './merge-repository'
import { recordsOn, type FrontDeskRecords } from './records'
import { readPinParams } from './secrets'
import { KioskError } from '../../shared/errors'

/** What the site took in of a kiosk's records, counted by kind. */
export interface MergeCounts {
  accounts: number
  watchlist: number
  alerts: number
  hosts: number
  visits: number
  invites: number
}

export interface MergeResult {
  /**
   * Accounts imported disabled, for an administrator of the site to look at: every account when the
   * site already had staff (a pairing code must not bring in new administrators unseen), else those
   * whose name the site had (under another name).
   */
  keptApart: KeptApart[]
  /** Rows added (a row the site already held, by its id, is not counted: it is there). */
  added: MergeCounts
  /** Watchlist entries the site had, whose reason now also says the kiosk's. */
  reasonsJoined: number
  /** Visits open at the kiosk for a person already on site: ended at the join. */
  visitsEnded: number
}

/** The watchlist's reasons are read at most this long (the wire's and the staff screen's limit). */
const REASON_MAX = 500
const ACCOUNT_NAME_MAX = 64

/**
 * An account name the site does not have yet, for a kiosk's account whose name it has:
 * "<name> - <kiosk name>", then "… 2", "… 3". Made of what an account name may hold (letters,
 * digits, spaces, dots, dashes, underscores: a name in brackets could not be typed at sign-in),
 * at most 64 characters, so staff can sign in with it once an administrator enables it.
 */
async function freeName(records: FrontDeskRecords, name: string, kioskName: string): Promise<string> {
  const place =
    kioskName
      .normalize('NFC')
      .replace(/[^\p{L}\p{N}._ -]/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 30)
      .trim() || 'kiosk'
  for (let n = 1; ; n++) {
    const suffix = ` - ${place}${n === 1 ? '' : ` ${n}`}`
    const candidate = `${name.slice(0, ACCOUNT_NAME_MAX - suffix.length).trimEnd()}${suffix}`
    if (!(await records.accounts.byName(candidate))) return candidate
  }
}

/** The site's reason, and the kiosk's after it when it says something else (cut to what a reason may hold). */
function joinedReason(site: string, kiosk: string, kioskName: string): string | null {
  const theirs = kiosk.trim()
  if (theirs === '' || site.trim() === theirs || site.includes(theirs)) return null
  const joined = `${site} / ${kioskName}: ${theirs}`
  return joined.length <= REASON_MAX ? joined : `${joined.slice(0, REASON_MAX - 1)}…`
}

/**
 * Takes a kiosk's records into the site's, inside the transaction that uses its pairing code up
 * (redeemPairingCode's alsoDo): all of it, or, when anything fails, none of it and no kiosk. Nothing
 * the kiosk brought is dropped:
 * - accounts keep their PIN hashes (staff sign in with the PINs they had); on a site that already
 *   has staff each is imported DISABLED and listed, for its administrators to enable (a pairing code
 *   must not bring in administrators unseen), one whose name the site has under another name
 *   (freeName); on a site with none, as they were: the first kiosk's staff become the site's;
 * - a person the site already watches keeps the site's entry, its reason followed by the kiosk's
 *   when they differ; the kiosk's alerts are the site's, from this kiosk;
 * - hosts, visits (from this kiosk, `kiosk.id`) and invites are added; a visit still open at the
 *   kiosk for a person already on site is ended at the join (by nobody: no one checked them out);
 * - the kiosk's invitation key is kept under a new key id, marked as brought (it signs nothing new),
 *   and each of its invites names it, so the codes the kiosk printed still verify, and are used once.
 */
export async function mergeKioskRecords(tx: Sql, kiosk: SiteKiosk, brought: KioskRecords, at: number): Promise<MergeResult> {
  const records = recordsOn(tx)
  const merge = new MergeRepository(tx)
  const result: MergeResult = { keptApart: [], added: { accounts: 0, watchlist: 0, alerts: 0, hosts: 0, visits: 0, invites: 0 }, reasonsJoined: 0, visitsEnded: 0 }

  // The names decided under the accounts' lock: an account made at another kiosk meanwhile cannot take one.
  await records.accounts.lock()
  // A site with staff takes the kiosk's accounts in disabled: its administrators choose whom to enable.
  const siteHasStaff = (await records.accounts.count()) > 0
  for (const account of brought.accounts) {
    if (!readPinParams(account.params)) throw new KioskError('INVALID_INPUT', `The account ${account.name} was brought with PIN parameters this site does not use: nothing was merged.`)
    const taken = (await records.accounts.byName(account.name)) !== undefined
    const name = taken ? await freeName(records, account.name, kiosk.name) : account.name
    const added = await records.accounts.insertImported({
      name,
      role: account.role,
      salt: Buffer.from(account.salt, 'base64'),
      hash: Buffer.from(account.hash, 'base64'),
      params: account.params,
      disabled: siteHasStaff || account.disabled ? 1 : 0,
      created_at: account.createdAt,
      last_sign_in_at: account.lastSignInAt,
      failures: 0,
      locked_until: 0,
    })
    if (added) result.added.accounts++
    if (siteHasStaff && added) result.keptApart.push({ name: account.name, importedAs: name })
  }

  for (const entry of brought.watchlist) {
    const site = await records.watchlist.byPerson(entry.personUuid)
    if (!site) {
      if (await records.watchlist.insertImported(entry)) result.added.watchlist++
      continue
    }
    const reason = joinedReason(site.reason, entry.reason, kiosk.name)
    if (reason !== null) {
      await records.watchlist.put({ ...site, reason })
      result.reasonsJoined++
    }
  }
  for (const alert of brought.alerts) {
    const row = {
      id: alert.id,
      at: alert.at,
      kiosk_id: kiosk.id,
      kiosk_name: kiosk.name,
      place: alert.place,
      person_uuid: alert.personUuid,
      email: alert.email,
      given_email: alert.givenEmail,
      reason: alert.reason,
      dismissed_at: alert.dismissedAt,
      dismissed_by: alert.dismissedBy,
    }
    if (await records.watchlist.insertImportedAlert(row)) result.added.alerts++
  }

  for (const host of brought.hosts) {
    if (await records.hosts.insertImported({ id: host.id, name: host.name, email: host.email, webhook_url: host.webhookUrl, created_at: host.createdAt })) result.added.hosts++
  }

  let keyKid: string | null = null
  if (brought.inviteKey !== null && brought.invites.length > 0) {
    keyKid = newKeyId()
    await new InviteKeyRepository(tx).insertImported({ kid: keyKid, secret: Buffer.from(brought.inviteKey, 'base64'), created_at: at, importedFrom: kiosk.id })
  }
  for (const invite of brought.invites) if (await merge.insertInvite(invite, keyKid)) result.added.invites++

  for (const visit of brought.visits) {
    let row = visit
    if (visit.checkedOutAt === null && (await records.visits.openOf(visit.personUuid))) {
      row = { ...visit, checkedOutAt: Math.max(at, visit.checkedInAt), checkedOutBy: null }
      result.visitsEnded++
    }
    if (await merge.insertVisit(row, kiosk.id)) result.added.visits++
  }
  return result
}
