import { z } from 'zod'
import {
  algorithmAssociationSchema,
  appAssociationSchema,
  pageSchema,
  personSchema,
  tenantPersonSchema,
  tenantSchema,
  tokenResponseSchema,
  type LicenseData,
  type Page,
  type Person,
  type Tenant,
  type TenantPerson,
} from '../../shared/api-models'
import { ApiError } from './api-error'
import { HttpClient, type RequestOptions } from './http-client'
import { TokenProvider, withToken, type IssuedToken } from './token-provider'

export const SCOPE_TENANT_ADMIN = 'SCOPE_TENANT_ADMIN'

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

const seg = encodeURIComponent
const json = { 'content-type': 'application/json', accept: 'application/json' }

/** The person server's API (reference §4.1–4.3), authenticated with a cached client-credentials token. */
export class PersonServerClient {
  readonly http: HttpClient
  readonly tokens: TokenProvider

  constructor(baseUrl: string, credentials: () => Promise<ClientCredentials>, timeouts: { connectTimeoutMs?: number; requestTimeoutMs?: number } = {}) {
    this.http = new HttpClient({ baseUrl, name: 'The person server', ...timeouts })
    this.tokens = new TokenProvider(async () => this.requestToken(await credentials()))
  }

  /** POST /v2/oauth2/oauth/token with HTTP Basic client credentials (§4.1). */
  async requestToken({ clientId, clientSecret }: ClientCredentials): Promise<IssuedToken> {
    const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')
    const reply = await this.http.json('the token request', tokenResponseSchema, {
      method: 'POST',
      path: '/v2/oauth2/oauth/token',
      query: { scope: SCOPE_TENANT_ADMIN, grant_type: 'client_credentials' },
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    })
    return { token: reply.access_token, expiresInSeconds: reply.expires_in }
  }

  getPerson(uuid: string): Promise<Person | null> {
    return this.orNull(this.call('get person', personSchema, { method: 'GET', path: `/v2/gmiserver/person/${seg(uuid)}` }))
  }

  findPersonByUserId(userId: string): Promise<Person | null> {
    return this.orNull(this.call('look up by userId', personSchema, { method: 'GET', path: '/v2/gmiserver/person', query: { userId } }))
  }

  findPersonByDeviceId(deviceId: string): Promise<Person | null> {
    return this.orNull(this.call('look up by deviceId', personSchema, { method: 'GET', path: '/v2/gmiserver/person', query: { deviceId } }))
  }

  listPersons(query: ListQuery = {}): Promise<Page<Person>> {
    return this.call('list persons', pageSchema(personSchema), { method: 'GET', path: '/v2/gmiserver/person', query: { ...query } })
  }

  appUser(app: string, by: { userId: string } | { deviceId: string }): Promise<(Person & { appCode?: string; tenantCodes?: string[] }) | null> {
    const schema = personSchema.extend({ appCode: z.string().optional(), tenantCodes: z.array(z.string()).optional() })
    return this.orNull(this.call('get app user data', schema, { method: 'GET', path: `/v2/gmiserver/app/${seg(app)}/person`, query: by }))
  }

  /** Creates a person in the tenant; a 409 (the userId exists) surfaces as ApiError status 409. */
  createPerson(tenant: string, userId: string): Promise<Person> {
    return this.call('create person', personSchema, {
      method: 'POST',
      path: `/v2/gmiserver/tenant/${seg(tenant)}/person`,
      headers: json,
      body: JSON.stringify({ userId }),
    })
  }

  async associatePerson(tenant: string, uuid: string): Promise<void> {
    await this.call('associate person', z.unknown(), { method: 'PUT', path: `/v2/gmiserver/tenant/${seg(tenant)}/person/${seg(uuid)}` })
  }

  personTenants(uuid: string): Promise<Tenant[]> {
    return this.call('list the tenants of a person', z.array(tenantSchema), { method: 'GET', path: `/v2/gmiserver/person/${seg(uuid)}/tenant`, headers: json })
  }

  async deletePerson(uuid: string): Promise<void> {
    await this.call('delete person', z.unknown(), { method: 'DELETE', path: `/v2/gmiserver/person/${seg(uuid)}` })
  }

  getTenant(tenant: string): Promise<Tenant> {
    return this.call('get tenant', tenantSchema, { method: 'GET', path: `/v2/gmiserver/tenant/${seg(tenant)}` })
  }

  updateTenant(tenant: string, update: { name: string; maxIdentities: number; defaultPostBack: string | null }): Promise<Tenant> {
    return this.call('update tenant', tenantSchema, {
      method: 'PUT',
      path: `/v1/tenant/${seg(tenant)}`,
      headers: json,
      body: JSON.stringify({ ...update, code: tenant }),
    })
  }

  tenantPerson(tenant: string, uuid: string): Promise<TenantPerson | null> {
    return this.orNull(this.call('get tenant user data', tenantPersonSchema, { method: 'GET', path: `/v2/gmiserver/tenant/${seg(tenant)}/person/${seg(uuid)}` }))
  }

  tenantPersons(tenant: string, query: ListQuery = {}): Promise<Page<TenantPerson>> {
    return this.call('list tenant users', pageSchema(tenantPersonSchema), { method: 'GET', path: `/v2/gmiserver/tenant/${seg(tenant)}/person`, query: { ...query } })
  }

  /** Disassociates; false when the person was not a user of the tenant. */
  disassociatePerson(tenant: string, uuid: string): Promise<boolean> {
    return this.orFalse(this.call('disassociate person', z.unknown(), { method: 'DELETE', path: `/v2/gmiserver/tenant/${seg(tenant)}/person/${seg(uuid)}` }))
  }

  apps(tenant: string) {
    return this.call('list apps', z.array(appAssociationSchema), { method: 'GET', path: `/v2/gmiserver/tenant/${seg(tenant)}/app` })
  }

  async associateApp(tenant: string, app: string): Promise<void> {
    await this.call('associate app', z.unknown(), { method: 'PUT', path: `/v2/gmiserver/tenant/${seg(tenant)}/app/${seg(app)}` })
  }

  disassociateApp(tenant: string, app: string): Promise<boolean> {
    return this.orFalse(this.call('disassociate app', z.unknown(), { method: 'DELETE', path: `/v2/gmiserver/tenant/${seg(tenant)}/app/${seg(app)}` }))
  }

  associateAlgorithm(tenant: string, alg: string, license: LicenseData) {
    return this.call('associate algorithm', algorithmAssociationSchema.optional(), {
      method: 'PUT',
      path: `/v2/gmiserver/tenant/${seg(tenant)}/svrgrp/main/alg/${seg(alg)}`,
      headers: json,
      body: JSON.stringify(license),
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
