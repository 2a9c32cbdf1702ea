import { SCOPE_TENANT_ADMIN } from '../shared/api-requests'
import { KioskError } from '../shared/errors'
import { SCOPE_FRONTDESK_KIOSK } from '../shared/frontdesk-api'
import type { KioskSettings } from '../shared/settings'
import { templateInfoCache, type Backend } from './backend'
import { connect, type SiteConnection } from './clients/connect'
import type { ClientCredentials } from './clients/person-server'
import type { IssuedToken } from './clients/token-provider'
import type { CredentialStore } from './secrets/credentials'

export interface EmbeddedTarget {
  /** The running engine's base URL, or null while it is not running. */
  url(): string | null
  state(): string
}

/** What a kiosk on its own answers when asked for its site. */
export function notOnSite(): KioskError {
  return new KioskError('NOT_CONFIGURED', 'This kiosk is not on a site.')
}

/**
 * Builds the workflows' Backend from the current settings: the embedded engine (its URL and its
 * per-install credentials) or the remote servers (URLs from the settings, credentials from the
 * keychain); on a site, also the site's front desk, reached with the same token. Clients are kept
 * while the target stays the same, so pools and tokens are reused.
 */
export class BackendResolver {
  private current: { key: string; clients: ReturnType<typeof connect>; templateInfo: ReturnType<typeof templateInfoCache> } | null = null

  constructor(
    private readonly credentials: CredentialStore,
    private readonly embedded: EmbeddedTarget,
  ) {}

  async backend(settings: KioskSettings): Promise<Backend> {
    const { clients, templateInfo } = await this.connected(settings)
    return {
      persons: clients.persons,
      bio: clients.bio,
      tenantCode: settings.tenantCode,
      appCode: settings.appCode,
      templateType: settings.templateType,
      verifyThresholdOverride: settings.verifyThresholdOverride,
      identifyThresholdOverride: settings.identifyThresholdOverride,
      identifyMaxResults: settings.identifyMaxResults,
      templateInfo: () => templateInfo(settings.templateType),
    }
  }

  /** The site's front desk and the token its calls carry; NOT_CONFIGURED when the kiosk is not on a site. */
  async site(settings: KioskSettings): Promise<SiteConnection> {
    if (settings.mode !== 'site') throw notOnSite()
    const { clients } = await this.connected(settings)
    if (!clients.site) throw notOnSite()
    return clients.site
  }

  private async connected(settings: KioskSettings): Promise<NonNullable<BackendResolver['current']>> {
    const target = this.target(settings)
    if (this.current?.key !== target.key) {
      await this.reset()
      const clients = connect(target.options)
      this.current = { key: target.key, clients, templateInfo: templateInfoCache(clients.bio) }
    }
    return this.current
  }

  /** Drops the clients (and their cached tokens): after a credential or settings change. */
  async reset(): Promise<void> {
    const old = this.current
    this.current = null
    await old?.clients.close()
  }

  private target(settings: KioskSettings): { key: string; options: Parameters<typeof connect>[0] } {
    const timeouts = { connectTimeoutMs: settings.connectTimeoutSeconds * 1000, requestTimeoutMs: settings.requestTimeoutSeconds * 1000 }
    const timing = `${timeouts.connectTimeoutMs}|${timeouts.requestTimeoutMs}`
    if (settings.mode === 'embedded') {
      const url = this.embedded.url()
      // Not running yet (or again): the kiosk's own engine, not the network; the outbox keeps enrollments until it is back.
      if (!url) throw engineNotRunning(this.embedded.state())
      return {
        key: `embedded|${url}|${timing}`,
        options: { personServerUrl: url, bioEngineUrl: `${url}/bioengine`, credentials: () => this.credentials.embeddedEngineCredentials(), ...timeouts },
      }
    }
    const { personServerUrl, bioEngineUrl, bioEngineAuth, basicAuthEncoding } = settings
    if (settings.mode === 'site') {
      // The site's engines: one token (the kiosk's client from pairing) for the person server, the BioEngine and the front desk.
      return {
        key: `site|${personServerUrl}|${bioEngineUrl}|${basicAuthEncoding}|${timing}`,
        options: {
          personServerUrl,
          bioEngineUrl,
          basicAuthEncoding,
          ...timeouts,
          credentials: () => this.remoteCredentials('This kiosk has no credential from its site: an administrator can join it to the site again.'),
          scope: `${SCOPE_TENANT_ADMIN} ${SCOPE_FRONTDESK_KIOSK}`,
          siteUrl: personServerUrl,
        },
      }
    }
    return {
      key: `remote|${personServerUrl}|${bioEngineUrl}|${bioEngineAuth}|${basicAuthEncoding}|${timing}`,
      options: {
        personServerUrl,
        bioEngineUrl,
        basicAuthEncoding,
        ...timeouts,
        credentials: () => this.remoteCredentials(),
        ...(bioEngineAuth === 'stored-jwt' ? { bioEngineJwt: () => this.storedJwt() } : {}),
      },
    }
  }

  private async remoteCredentials(missing = 'Set the person server client id and secret in Settings.'): Promise<ClientCredentials> {
    const { clientId, clientSecret } = await this.credentials.serverCredentials()
    if (!clientId || !clientSecret) throw new KioskError('NOT_CONFIGURED', missing)
    return { clientId, clientSecret }
  }

  private async storedJwt(): Promise<IssuedToken> {
    const { bioengineJwt } = await this.credentials.serverCredentials()
    if (!bioengineJwt) throw new KioskError('NOT_CONFIGURED', 'Store the BioEngine token in Settings, or let the BioEngine use the person server token.')
    return { token: bioengineJwt, expiresInSeconds: jwtLifetimeSeconds(bioengineJwt) }
  }
}

/** The error for a call made while the embedded engine is not running, in words that name its state and the next step. */
export function engineNotRunning(state: string): KioskError {
  const starting = state === 'starting' || state === 'restarting'
  return new KioskError(
    'ENGINE_UNAVAILABLE',
    starting ? `The kiosk is starting (its engine is ${state}); try again in a moment.` : `The kiosk's engine is not running (${state}); restart the kiosk, or ask an administrator.`,
  )
}

/** Seconds until a JWT's exp claim (an hour when it has none or cannot be read). */
export function jwtLifetimeSeconds(jwt: string, now = Date.now()): number {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown }
    if (typeof payload.exp === 'number') return Math.max(0, payload.exp - now / 1000)
  } catch {
    // not a readable JWT payload
  }
  return 3600
}
