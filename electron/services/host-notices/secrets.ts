import type { NotificationSecretStatus, NotificationSecretsInput } from '../../shared/host-notices'
import { credentialAccounts } from '../secrets/credentials'
import type { Keychain } from '../secrets/keychain'

/** The SMTP password and the webhook signing secret, kept in the OS keychain only (read at each send, never stored or logged). */
export interface NoticeSecrets {
  smtpPassword(): Promise<string | null>
  webhookSecret(): Promise<string | null>
  status(): Promise<NotificationSecretStatus>
  /** Stores the given secrets; null deletes one; a field left out stays as it is. */
  set(input: NotificationSecretsInput): Promise<NotificationSecretStatus>
}

export function noticeSecrets(keychain: Pick<Keychain, 'get' | 'set' | 'delete'>): NoticeSecrets {
  const accounts = { smtpPassword: credentialAccounts.smtpPassword, webhookSecret: credentialAccounts.webhookSecret }
  const status = async () => ({
    // One after another: a locked keychain is settled by the first answer.
    smtpPassword: (await keychain.get(accounts.smtpPassword)) !== null,
    webhookSecret: (await keychain.get(accounts.webhookSecret)) !== null,
  })
  return {
    smtpPassword: () => keychain.get(accounts.smtpPassword),
    webhookSecret: () => keychain.get(accounts.webhookSecret),
    status,
    async set(input) {
      for (const name of ['smtpPassword', 'webhookSecret'] as const) {
        const value = input[name]
        if (value === null) await keychain.delete(accounts[name])
        else if (value !== undefined) await keychain.set(accounts[name], value)
      }
      return status()
    },
  }
}
