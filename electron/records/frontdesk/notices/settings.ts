import { smtpSettingsSchema, type HostNoticeSecretStatus, type HostNoticeSecretsInput, type SmtpSettings } from '../../../shared/host-notices'
import type { Sql } from '../../sql/types'
import { DeliveryFailure } from './failure'

interface NoticeSettingsRow {
  smtp: string | null
  smtp_password: Buffer | null
  webhook_secret: Buffer | null
}

/** The one row of notice_settings (notices-migration.ts): the SMTP settings, and on a site its sealed secrets. */
export class NoticeSettingsRepository {
  constructor(private readonly sql: Sql) {}

  async row(): Promise<NoticeSettingsRow | null> {
    return (await this.sql.get<NoticeSettingsRow>('SELECT smtp, smtp_password, webhook_secret FROM notice_settings WHERE id = 1')) ?? null
  }

  /** The SMTP settings as saved; null when e-mail is not set up (or what is stored no longer reads as settings). */
  async smtp(): Promise<SmtpSettings | null> {
    const stored = (await this.row())?.smtp
    if (!stored) return null
    try {
      const parsed = smtpSettingsSchema.safeParse(JSON.parse(stored))
      return parsed.success ? parsed.data : null
    } catch {
      return null
    }
  }

  async setSmtp(smtp: SmtpSettings | null, now: number): Promise<void> {
    await this.sql.run('INSERT INTO notice_settings (id, smtp, updated_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET smtp = excluded.smtp, updated_at = excluded.updated_at', [
      smtp === null ? null : JSON.stringify(smtp),
      now,
    ])
  }

  /** Sets the SMTP settings only where none are saved (an older store's, taken over once). */
  async setSmtpIfNone(smtp: string, now: number): Promise<void> {
    await this.sql.run('INSERT INTO notice_settings (id, smtp, updated_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET smtp = excluded.smtp, updated_at = excluded.updated_at WHERE notice_settings.smtp IS NULL', [smtp, now])
  }

  /** undefined leaves a secret as it is; null clears it. */
  async setSecrets(secrets: { smtpPassword: Buffer | null | undefined; webhookSecret: Buffer | null | undefined }, now: number): Promise<void> {
    await this.sql.run('INSERT INTO notice_settings (id, updated_at) VALUES (1, ?) ON CONFLICT (id) DO NOTHING', [now])
    if (secrets.smtpPassword !== undefined) await this.sql.run('UPDATE notice_settings SET smtp_password = ?, updated_at = ? WHERE id = 1', [secrets.smtpPassword, now])
    if (secrets.webhookSecret !== undefined) await this.sql.run('UPDATE notice_settings SET webhook_secret = ?, updated_at = ? WHERE id = 1', [secrets.webhookSecret, now])
  }
}

/**
 * Where the SMTP password and the webhook signing secret are kept, read at each send (never logged):
 * a kiosk on its own keeps them in the OS keychain (electron/services/host-notices/secrets.ts), a
 * site sealed in its database (sealedNoticeSecrets).
 */
export interface NoticeSecrets {
  smtpPassword(): Promise<string | null>
  webhookSecret(): Promise<string | null>
  status(): Promise<HostNoticeSecretStatus>
  /** Stores the given secrets; null deletes one; a field left out stays as it is. */
  set(input: HostNoticeSecretsInput): Promise<HostNoticeSecretStatus>
}

/** How a site's notice secrets are kept in its database: the engine's template sealer (AES-256-GCM under the key every engine of the site shares). */
export interface NoticeSealer {
  seal(plain: Uint8Array): Buffer
  open(sealed: Uint8Array): Buffer
}

/** The site's secrets, sealed in notice_settings: every engine of the site opens what another sealed. */
export function sealedNoticeSecrets(sql: Sql, sealer: NoticeSealer, now: () => number): NoticeSecrets {
  const settings = new NoticeSettingsRepository(sql)
  const opened = (sealed: Buffer | null, what: string): string | null => {
    if (sealed === null) return null
    try {
      return sealer.open(sealed).toString('utf8')
    } catch {
      throw new DeliveryFailure('NOT_CONFIGURED', `The ${what} cannot be read by this engine (its template key is not the site's): an administrator enters it again in Settings, Host notifications.`, false)
    }
  }
  const sealed = (value: string | null | undefined): Buffer | null | undefined => (value === undefined || value === null ? value : sealer.seal(Buffer.from(value, 'utf8')))
  const status = async (): Promise<HostNoticeSecretStatus> => {
    const row = await settings.row()
    return { smtpPassword: (row?.smtp_password ?? null) !== null, webhookSecret: (row?.webhook_secret ?? null) !== null }
  }
  return {
    smtpPassword: async () => opened((await settings.row())?.smtp_password ?? null, 'SMTP password'),
    webhookSecret: async () => opened((await settings.row())?.webhook_secret ?? null, 'webhook signing secret'),
    status,
    async set(input) {
      await settings.setSecrets({ smtpPassword: sealed(input.smtpPassword), webhookSecret: sealed(input.webhookSecret) }, now())
      return status()
    },
  }
}
