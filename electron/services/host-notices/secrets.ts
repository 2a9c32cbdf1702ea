import type { NoticeSecrets } from '../../records/frontdesk/notices/settings'
import { credentialAccounts } from '../secrets/credentials'
import type { Keychain } from '../secrets/keychain'

/** A kiosk on its own keeps the SMTP password and the webhook signing secret in the OS keychain only (read at each send, never stored or logged). */
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
