import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import { KioskError } from '../../shared/errors'
import {
  serverCredentialNames,
  serverCredentialsInputSchema,
  type CredentialStatus,
  type ServerCredentialName,
  type ServerCredentialsInput,
} from '../../shared/settings'
import { createKeychain, type Keychain, type KeychainState } from './keychain'

/** Keychain account names of the kiosk's secrets (all under the service KEYCHAIN_SERVICE). */
export const credentialAccounts = {
  clientId: 'person-server.client-id',
  clientSecret: 'person-server.client-secret',
  bioengineJwt: 'bioengine.jwt',
  outboxKey: 'outbox.key',
  inviteKey: 'invites.key',
  engineClientId: 'engine.client-id',
  engineClientSecret: 'engine.client-secret',
  engineTemplateKey: 'engine.template-key',
  /** Host notifications (host-notices/secrets.ts): the SMTP account's password and the webhook signing secret. */
  smtpPassword: 'host-notices.smtp-password',
  webhookSecret: 'host-notices.webhook-secret',
} as const

/** The person server's client credentials and the stored BioEngine JWT; null where none is stored. */
export interface ServerCredentials {
  clientId: string | null
  clientSecret: string | null
  bioengineJwt: string | null
}

/** The embedded engine's OAuth2 client, random per install. */
export interface EmbeddedEngineCredentials {
  clientId: string
  clientSecret: string
}

export interface CredentialStore {
  /**
   * Stores the given credentials (fields left out stay as they are). Validates first: an invalid
   * field throws INVALID_INPUT naming the field, never quoting it. Returns the new status.
   */
  setServerCredentials(input: ServerCredentialsInput): Promise<CredentialStatus>
  /** The stored values, for the services' own clients only: never hand this to the renderer. */
  serverCredentials(): Promise<ServerCredentials>
  /** The person server's client id and secret; NOT_CONFIGURED when either is missing. For the services' clients only. */
  personServerClient(): Promise<{ clientId: string; clientSecret: string }>
  /** The stored BioEngine JWT; NOT_CONFIGURED when none is stored. For the services' clients only. */
  bioEngineJwt(): Promise<string>
  /** Which credentials are stored: what the renderer may see. */
  credentialStatus(): Promise<CredentialStatus>
  /** Deletes the named credentials (all three when none are named). Returns the new status. */
  clearServerCredentials(names?: readonly ServerCredentialName[]): Promise<CredentialStatus>
  /** The outbox's AES-256-GCM key: 32 random bytes, created on first use. */
  outboxKey(): Promise<Buffer>
  /** The HMAC-SHA256 key invite codes are signed with: 32 random bytes, created on first use. */
  inviteKey(): Promise<Buffer>
  /** The embedded engine's client id and secret, created on first use. */
  embeddedEngineCredentials(): Promise<EmbeddedEngineCredentials>
  /** The embedded engine's template key (32 bytes, created on first use); pass it as ENGINE_TEMPLATE_KEY in base64. */
  engineTemplateKey(): Promise<Buffer>
  /** Whether the keychain can be used now: 'ready', 'locked' or 'unavailable'. */
  keychainState(): Promise<KeychainState>
}

const KEY_BYTES = 32

/**
 * The kiosk's named secrets over the OS keychain. Every value stays in the keychain and in memory
 * only for as long as a caller holds it; nothing here writes files or logs. Keys that are created on
 * first use are created once: a locked keychain throws KEYCHAIN_LOCKED rather than looking empty, so
 * an existing key is never replaced by a new one (which would make the outbox unreadable).
 */
export function createCredentialStore(keychain: Keychain = createKeychain()): CredentialStore {
  /** In-flight first-use creations by account, so concurrent callers share one new value. */
  const creating = new Map<string, Promise<string>>()

  function getOrCreate(account: string, make: () => string): Promise<string> {
    const pending = creating.get(account)
    if (pending) return pending
    const work = (async () => {
      const existing = await keychain.get(account)
      if (existing !== null) return existing
      await keychain.set(account, make())
      // Read back: proves it was stored, and returns what the keychain holds from now on.
      const stored = await keychain.get(account)
      if (stored === null) throw new KioskError('KEYCHAIN_UNAVAILABLE', 'The OS keychain did not keep a new kiosk key; check the keyring and try again.')
      return stored
    })()
    creating.set(account, work)
    const forget = () => {
      creating.delete(account)
    }
    work.then(forget, forget)
    return work
  }

  async function key(account: string, what: string): Promise<Buffer> {
    const encoded = await getOrCreate(account, () => randomBytes(KEY_BYTES).toString('base64'))
    const bytes = Buffer.from(encoded, 'base64')
    if (bytes.length !== KEY_BYTES || bytes.toString('base64') !== encoded) {
      // Never replace it silently: whatever it protects could no longer be read.
      throw new KioskError('INTERNAL', `The ${what} in the OS keychain is damaged (not ${KEY_BYTES} bytes of base64); it was left as it is.`)
    }
    return bytes
  }

  async function status(): Promise<CredentialStatus> {
    const values = await read()
    return { clientId: values.clientId !== null, clientSecret: values.clientSecret !== null, bioengineJwt: values.bioengineJwt !== null }
  }

  async function read(): Promise<ServerCredentials> {
    // One after another: the first answer settles a locked keychain before the others ask.
    const clientId = await keychain.get(credentialAccounts.clientId)
    const clientSecret = await keychain.get(credentialAccounts.clientSecret)
    const bioengineJwt = await keychain.get(credentialAccounts.bioengineJwt)
    return { clientId, clientSecret, bioengineJwt }
  }

  return {
    async setServerCredentials(input) {
      const parsed = serverCredentialsInputSchema.safeParse(input)
      if (!parsed.success) throw invalidCredentials(parsed.error)
      for (const name of serverCredentialNames) {
        const value = parsed.data[name]
        if (value !== undefined) await keychain.set(credentialAccounts[name], value)
      }
      return status()
    },
    serverCredentials: read,
    async personServerClient() {
      const clientId = await keychain.get(credentialAccounts.clientId)
      const clientSecret = await keychain.get(credentialAccounts.clientSecret)
      if (clientId === null || clientSecret === null) {
        throw new KioskError('NOT_CONFIGURED', "The person server's client id and client secret are not both set; enter them in Settings.")
      }
      return { clientId, clientSecret }
    },
    async bioEngineJwt() {
      const jwt = await keychain.get(credentialAccounts.bioengineJwt)
      if (jwt === null) throw new KioskError('NOT_CONFIGURED', 'No BioEngine token is stored; enter it in Settings, or let the BioEngine use the person server token.')
      return jwt
    },
    credentialStatus: status,
    async clearServerCredentials(names = serverCredentialNames) {
      for (const name of names) {
        if (!serverCredentialNames.includes(name)) throw new KioskError('INVALID_INPUT', 'Unknown credential name.')
        await keychain.delete(credentialAccounts[name])
      }
      return status()
    },
    outboxKey: () => key(credentialAccounts.outboxKey, 'outbox key'),
    engineTemplateKey: () => key(credentialAccounts.engineTemplateKey, 'engine template key'),
    inviteKey: () => key(credentialAccounts.inviteKey, 'invite key'),
    async embeddedEngineCredentials() {
      const clientId = await getOrCreate(credentialAccounts.engineClientId, () => `kiosk-${randomBytes(8).toString('hex')}`)
      const clientSecret = await getOrCreate(credentialAccounts.engineClientSecret, () => randomBytes(32).toString('base64url'))
      return { clientId, clientSecret }
    },
    keychainState: () => keychain.state(),
  }
}

/** Names the fields and the rule broken; zod's messages here never quote the input. */
function invalidCredentials(error: z.ZodError): KioskError {
  const reasons = error.issues.map((issue) =>
    issue.code === 'unrecognized_keys' ? `Unknown field(s): ${issue.keys.join(', ').slice(0, 200)}` : issue.message,
  )
  return new KioskError('INVALID_INPUT', `Invalid credentials: ${[...new Set(reasons)].join('; ')}.`)
}
