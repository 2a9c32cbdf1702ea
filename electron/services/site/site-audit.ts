import type { z } from 'zod'
import { KioskError } from '../../shared/errors'
import { auditQueryRecord, type auditExportInput, type auditExportResult, type auditLogResult, type AuditQueryInput, type AuditVerdictView } from '../../shared/audit'
import type { SiteConnection } from '../clients/connect'
import type { Call } from '../dispatch'
import type { KioskDesk } from '../front-desk/desk'
import type { DeskSession } from '../staff/sessions'
import { siteCall } from './site-http'

/** An audit trail as staff read it: a page with the chain's verdict, a verification, a file. */
export interface StaffAuditView {
  log(query: AuditQueryInput): Promise<z.infer<typeof auditLogResult>>
  verify(): Promise<AuditVerdictView>
  export(input: z.infer<typeof auditExportInput>): Promise<z.infer<typeof auditExportResult>>
}

/** The site's trail (every act its kiosks asked of it), read with one staff session: the site checks its role. `trail` is the kiosk's choice, not sent. */
export function siteAuditView(connection: () => Promise<SiteConnection>, session: string): StaffAuditView {
  return {
    log: async (query) => siteCall(await connection(), 'auditLog', { session, query: auditQueryRecord(query) }),
    verify: async () => siteCall(await connection(), 'verifyAudit', { session }),
    export: async ({ trail: _trail, ...input }) => siteCall(await connection(), 'exportAudit', { session, body: input }),
  }
}

/**
 * The trail a staff call reads: on a site, the site's, with the caller's own staff session (a kiosk
 * on a site keeps its own trail too, read with `trail: 'kiosk'`); null for the kiosk's own trail:
 * on a kiosk on its own, or when the call asks for it.
 */
export function siteAuditFor(deps: {
  desk: () => Promise<KioskDesk>
  held: (key: string | null) => DeskSession | null
  connection: () => Promise<SiteConnection>
}): (call: Call, trail?: 'site' | 'kiosk') => Promise<StaffAuditView | null> {
  return async (call, trail) => {
    if (trail === 'kiosk') return null
    const desk = await deps.desk()
    if (!desk.onSite) return null
    const held = deps.held(call.key)
    // Only a session the site issued: one from the kiosk's own desk means nothing there.
    if (!held || held.desk !== desk.id) throw new KioskError('FORBIDDEN', 'Staff must sign in to do this.')
    return siteAuditView(deps.connection, held.token)
  }
}
