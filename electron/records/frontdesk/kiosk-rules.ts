import { randomUUID } from 'node:crypto'
import { KioskError } from '../../shared/errors'
import { kioskName, pairingCode, PAIRING_CODE_TTL_MS, type SiteKiosk } from '../../shared/frontdesk-api'
import { UniqueViolationError } from '../sql/types'
import type { FrontDesk } from './front-desk'
import type { RulesContext } from './records'
import { newPairingCode, sha256 } from './secrets'

type KioskRules = Pick<FrontDesk, 'createPairingCode' | 'redeemPairingCode' | 'pairingCodeOpen' | 'listKiosks' | 'reportKioskHealth' | 'removeKiosk' | 'seenKiosk'>

const wrongCode = () => new KioskError('REJECTED', 'This pairing code is wrong: check it and type it again, or make a new one.')
const usedCode = () => new KioskError('REJECTED', 'This pairing code has already been used: make a new one.')
const expiredCode = () => new KioskError('REJECTED', `This pairing code has expired (a code is valid for ${PAIRING_CODE_TTL_MS / 60_000} minutes): make a new one.`)

/**
 * The site's kiosks: an administrator makes a one-time pairing code, a kiosk redeems it once and
 * is recorded; a removed kiosk is refused from then on (the engine asks seenKiosk on each call).
 */
export function kioskRules(context: RulesContext): KioskRules {
  const { records, now } = context

  return {
    async createPairingCode(createdBy) {
      await records.pairingCodes.prune(now())
      for (;;) {
        const code = newPairingCode()
        const createdAt = now()
        const expiresAt = createdAt + PAIRING_CODE_TTL_MS
        try {
          await records.pairingCodes.insert({ codeHash: sha256(code), createdBy, createdAt, expiresAt })
          return { code, expiresAt: new Date(expiresAt).toISOString() }
        } catch (error) {
          // The same code drawn twice within the keeping time (one in 31^8): draw again.
          if (!(error instanceof UniqueViolationError)) throw error
        }
      }
    },

    async redeemPairingCode(code, name, alsoDo) {
      const typed = pairingCode.safeParse(code)
      if (!typed.success) throw wrongCode()
      const named = kioskName.safeParse(name)
      if (!named.success) throw new KioskError('INVALID_INPUT', 'Give the kiosk a name: one line of at most 64 characters.')
      const codeHash = sha256(typed.data)
      // One transaction: the code is used up, the kiosk recorded and `alsoDo` done together, or none of them.
      return context.transaction(async (tx, sql) => {
        const at = now()
        const kiosk: SiteKiosk = { id: randomUUID(), name: named.data, joinedAt: at, lastSeenAt: null }
        if (!(await tx.pairingCodes.use(codeHash, at, kiosk.id))) {
          const row = await tx.pairingCodes.get(codeHash)
          throw !row ? wrongCode() : row.used_at !== null ? usedCode() : expiredCode()
        }
        await tx.kiosks.insert(kiosk)
        await alsoDo?.(sql, kiosk)
        return kiosk
      })
    },

    async pairingCodeOpen(code) {
      const typed = pairingCode.safeParse(code)
      if (!typed.success) return false
      const row = await records.pairingCodes.get(sha256(typed.data))
      return row !== undefined && row.used_at === null && row.expires_at > now()
    },

    listKiosks: () => records.kiosks.list(),

    reportKioskHealth: (kioskId, report) => records.kiosks.reportHealth(kioskId, report, now()),

    async removeKiosk(id) {
      return context.transaction(async (tx) => {
        if (!(await tx.kiosks.remove(id, now()))) return false
        // Staff signed in there are signed out with it.
        await tx.sessions.deleteForKiosk(id)
        return true
      })
    },

    seenKiosk: (id) => records.kiosks.seen(id, now()),
  }
}
