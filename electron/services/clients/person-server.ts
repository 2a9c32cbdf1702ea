import { z } from 'zod'
import {
  appRecordReply,
  appUserReply,
  listReply,
  personReply,
  tenantPersonReply,
  tenantReply,
  toPage,
  tokenResponseSchema,
  type AppRecord,
  type AppUser,
  type LicenseData,
  type Page,
  type Person,
  type Tenant,
  type TenantPerson,
} from '../../shared/api-models'
import type { BasicAuthEncoding } from '../../shared/settings'
import { SCOPE_TENANT_ADMIN, type CreatePersonRequest, type LicenseRequest, type TenantUpdateRequest } from '../../shared/api-requests'
import { ApiError } from './api-error'
import { HttpClient, type RequestOptions } from './http-client'
import { TokenProvider, withToken, type IssuedToken } from './token-provider'

export interface ListQuery {
  find?: string | undefined
  sort?: string | undefined
  pageSize?: number | undefined
  pageNo?: number | undefined
  notEmpty?: string | undefined
}

export interface ClientCredentials {
  clientId: string
  clientSecret: string
}

export interface PersonServerOptions {
  connectTimeoutMs?: number | undefined
  requestTimeoutMs?: number | undefined
  basicAuthEncoding?: BasicAuthEncoding | undefined
  /** The scopes the token is asked for (space-separated); SCOPE_TENANT_ADMIN unless said (a site's kiosk also asks for its front desk's). */
  scope?: string | undefined
}

/**
 * The Basic credentials of the token call. RFC 6749 §2.3.1 form-encodes the client id and secret
 * first; the vendor's own sample code does not, and a server that decodes plainly refuses secrets
 * with reserved characters when they arrive encoded (and the other way round).
 */
export function basicCredentials({ clientId, clientSecret }: ClientCredentials, encoding: BasicAuthEncoding): string {
  const encode = encoding === 'form-urlencoded' ? (v: string) => encodeURIComponent(v).replace(/%20/g, '+') : (v: string) => v
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`
}

const seg = encodeURIComponent

/** The token endpoint refused these credentials (400 invalid_client, 401): asking again would fail again. */
const isTokenRefusal = (error: unknown) => error instanceof ApiError && (error.status === 400 || error.status === 401 || error.status === 403)
const json = { 'content-type': 'application/json', accept: 'application/json' }

/** The person server's API (reference §4.1–4.3), authenticated with a cached client-credentials token. */
export class PersonServerClient {
  readonly http: HttpClient
  readonly tokens: TokenProvider

  constructor(baseUrl: string, credentials: () => Promise<ClientCredentials>, options: PersonServerOptions = {}) {
    this.http = new HttpClient({ baseUrl, name: 'The person server', connectTimeoutMs: options.connectTimeoutMs, requestTimeoutMs: options.requestTimeoutMs })
    const encoding = options.basicAuthEncoding ?? 'form-urlencoded'
    const scope = options.scope ?? SCOPE_TENANT_ADMIN
    this.tokens = new TokenProvider(async () => this.requestToken(await credentials(), encoding, scope), { isRefusal: isTokenRefusal })
  }

  /** POST /v2/oauth2/oauth/token with HTTP Basic client credentials (§4.1). */
  async requestToken(credentials: ClientCredentials, encoding: BasicAuthEncoding = 'form-urlencoded', scope: string = SCOPE_TENANT_ADMIN): Promise<IssuedToken> {
    const reply = await this.http.json('the token request', tokenResponseSchema, {
      method: 'POST',
      path: '/v2/oauth2/oauth/token',
      query: { scope, grant_type: 'client_credentials' },
      headers: { authorization: basicCredentials(credentials, encoding), 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    })
    return { token: reply.access_token, expiresInSeconds: reply.expires_in ?? null }
  }

  getPerson(uuid: string): Promise<Person | null> {
    return this.orNull(this.call('get person', personReply, { method: 'GET', path: `/v2/gmiserver/person/${seg(uuid)}` }))
  }

  findPersonByUserId(userId: string): Promise<Person | null> {
    return this.orNull(this.call('look up by userId', personReply, { method: 'GET', path: '/v2/gmiserver/person', query: { userId } }))
  }

  findPersonByDeviceId(deviceId: string): Promise<Person | null> {
    return this.orNull(this.call('look up by deviceId', personReply, { method: 'GET', path: '/v2/gmiserver/person', query: { deviceId } }))
  }

  async listPersons(query: ListQuery = {}): Promise<Page<Person>> {
    return toPage(await this.call('list persons', listReply(personReply), { method: 'GET', path: '/v2/gmiserver/person', query: { ...query } }), query)
  }

  appUser(app: string, by: { userId: string } | { deviceId: string }): Promise<AppUser | null> {
    return this.orNull(this.call('get app user data', appUserReply, { method: 'GET', path: `/v2/gmiserver/app/${seg(app)}/person`, query: by }))
  }

  /** Creates a person in the tenant; a 409 (the userId exists) surfaces as ApiError status 409. */
  createPerson(tenant: string, userId: string): Promise<Person> {
    return this.call('create person', personReply, {
      method: 'POST',
      path: `/v2/gmiserver/tenant/${seg(tenant)}/person`,
      headers: json,
      body: JSON.stringify({ userId } satisfies CreatePersonRequest),
    })
  }

  async associatePerson(tenant: string, uuid: string): Promise<void> {
    await this.call('associate person', z.unknown(), { method: 'PUT', path: `/v2/gmiserver/tenant/${seg(tenant)}/person/${seg(uuid)}` })
  }

  async personTenants(uuid: string): Promise<Tenant[]> {
    return (await this.call('list the tenants of a person', listReply(tenantReply()), { method: 'GET', path: `/v2/gmiserver/person/${seg(uuid)}/tenant`, headers: json })).content
  }

  async deletePerson(uuid: string): Promise<void> {
    await this.call('delete person', z.unknown(), { method: 'DELETE', path: `/v2/gmiserver/person/${seg(uuid)}` })
  }

  getTenant(tenant: string): Promise<Tenant> {
    return this.call('get tenant', tenantReply(tenant), { method: 'GET', path: `/v2/gmiserver/tenant/${seg(tenant)}` })
  }

  /** Updates the tenant; its reply is not shown in the reference, so it is not read. */
  async updateTenant(tenant: string, update: { name: string; maxIdentities: number; defaultPostBack: string | null; keepFaceCrops?: boolean | undefined }): Promise<void> {
    await this.call('update tenant', z.unknown(), {
      method: 'PUT',
      path: `/v1/tenant/${seg(tenant)}`,
      headers: json,
      body: JSON.stringify({ ...update, code: tenant } satisfies TenantUpdateRequest),
    })
  }

  tenantPerson(tenant: string, uuid: string): Promise<TenantPerson | null> {
    return this.orNull(this.call('get tenant user data', tenantPersonReply, { method: 'GET', path: `/v2/gmiserver/tenant/${seg(tenant)}/person/${seg(uuid)}` }))
  }

  async tenantPersons(tenant: string, query: ListQuery = {}): Promise<Page<TenantPerson>> {
    const list = await this.call('list tenant users', listReply(tenantPersonReply), { method: 'GET', path: `/v2/gmiserver/tenant/${seg(tenant)}/person`, query: { ...query } })
    return toPage(list, query)
  }

  /** Disassociates; false when the person was not a user of the tenant. */
  disassociatePerson(tenant: string, uuid: string): Promise<boolean> {
    return this.orFalse(this.call('disassociate person', z.unknown(), { method: 'DELETE', path: `/v2/gmiserver/tenant/${seg(tenant)}/person/${seg(uuid)}` }))
  }

  async apps(tenant: string): Promise<AppRecord[]> {
    return (await this.call('list apps', listReply(appRecordReply), { method: 'GET', path: `/v2/gmiserver/tenant/${seg(tenant)}/app` })).content
  }

  app(tenant: string, app: string): Promise<AppRecord | null> {
    return this.orNull(this.call('get app', appRecordReply, { method: 'GET', path: `/v2/gmiserver/tenant/${seg(tenant)}/app/${seg(app)}` }))
  }

  async associateApp(tenant: string, app: string): Promise<void> {
    await this.call('associate app', z.unknown(), { method: 'PUT', path: `/v2/gmiserver/tenant/${seg(tenant)}/app/${seg(app)}` })
  }

  disassociateApp(tenant: string, app: string): Promise<boolean> {
    return this.orFalse(this.call('disassociate app', z.unknown(), { method: 'DELETE', path: `/v2/gmiserver/tenant/${seg(tenant)}/app/${seg(app)}` }))
  }

  /** The body is `{"licenseData": {…}}`, the field the reference names (and the vendor's samples send). */
  async associateAlgorithm(tenant: string, alg: string, licenseData: LicenseData): Promise<void> {
    await this.call('associate algorithm', z.unknown(), {
      method: 'PUT',
      path: `/v2/gmiserver/tenant/${seg(tenant)}/svrgrp/main/alg/${seg(alg)}`,
      headers: json,
      body: JSON.stringify({ licenseData } satisfies LicenseRequest),
    })
  }

  disassociateAlgorithm(tenant: string, alg: string): Promise<boolean> {
    return this.orFalse(this.call('disassociate algorithm', z.unknown(), { method: 'DELETE', path: `/v2/gmiserver/tenant/${seg(tenant)}/svrgrp/main/alg/${seg(alg)}` }))
  }

  async associateLiveness(tenant: string, alg: string, liveness: string): Promise<void> {
    await this.call('associate liveness', z.unknown(), {
      method: 'PUT',
      path: `/v2/gmiserver/tenant/${seg(tenant)}/svrgrp/main/alg/${seg(alg)}/liveness/${seg(liveness)}`,
    })
  }

  disassociateLiveness(tenant: string, alg: string, liveness: string): Promise<boolean> {
    return this.orFalse(
      this.call('disassociate liveness', z.unknown(), {
        method: 'DELETE',
        path: `/v2/gmiserver/tenant/${seg(tenant)}/svrgrp/main/alg/${seg(alg)}/liveness/${seg(liveness)}`,
      }),
    )
  }

  close(): Promise<void> {
    return this.http.close()
  }

  /** An authenticated call; a 401 drops the token and retries once with a fresh one. */
  private call<T extends z.ZodType>(name: string, schema: T, options: RequestOptions): Promise<z.infer<T>> {
    return withToken(
      this.tokens,
      (token) => this.http.json(name, schema, { ...options, headers: { ...options.headers, authorization: `Bearer ${token}` } }),
      (error) => error instanceof ApiError && error.status === 401,
    )
  }

  private async orNull<T>(call: Promise<T>): Promise<T | null> {
    try {
      return await call
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null
      throw error
    }
  }

  private async orFalse(call: Promise<unknown>): Promise<boolean> {
    return (await this.orNull(call.then(() => true))) ?? false
  }
}
