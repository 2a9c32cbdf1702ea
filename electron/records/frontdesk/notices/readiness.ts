import type { NoticeChannel } from '../../../shared/host-notices'
import type { Sql } from '../../sql/types'
import { NoticeSettingsRepository, type NoticeSecrets } from './settings'

/**
 * The channels a notice can go out on now, as the settings stand: e-mail once its SMTP server is
 * saved (with its password stored when it signs in), the webhook once its signing secret is
 * stored. What this says is what a visitor is promised, so anything that cannot be read (a locked
 * keychain, no secrets store given) counts as not set up.
 */
export async function readyChannels(sql: Sql, secrets: Pick<NoticeSecrets, 'status'> | null): Promise<NoticeChannel[]> {
  try {
    const smtp = await new NoticeSettingsRepository(sql).smtp()
    const stored = secrets ? await secrets.status() : { smtpPassword: false, webhookSecret: false }
    const email = smtp !== null && (smtp.user === null || stored.smtpPassword)
    return [...(email ? (['email'] as const) : []), ...(stored.webhookSecret ? (['webhook'] as const) : [])]
  } catch {
    return []
  }
}
