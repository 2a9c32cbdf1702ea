import { randomBytes, randomUUID } from 'node:crypto'
import type { StandinState } from './types'

export interface PersonRec {
  uuid: string
  userId: string
  deviceId: string | null
  tenants: Set<string>
  created: number
  modified: number
}
export interface TemplateRec {
  personId: string
  templateType: string
  templateContext: string
  /** The fake matcher's template: SHA-256 hashes of the sample images (fake-matcher.ts). */
  hashes: string[]
  size: number
  timestamp: number
}
export interface AlgorithmRec {
  licenseData: unknown
  liveness: Set<string>
}
export interface TenantRec {
  code: string
  name: string
  maxIdentities: number
  defaultPostBack: unknown
  apps: Map<string, string>
  algorithms: Map<string, AlgorithmRec>
}

/** Everything both servers share: records, issued tokens, and what the client did before (for rules 1 and 2). */
export class Store {
  readonly persons = new Map<string, PersonRec>()
  readonly tenants = new Map<string, TenantRec>()
  templates: TemplateRec[] = []
  /** Issued person-server tokens → expiry (epoch ms). */
  readonly tokens = new Map<string, number>()
  /** Rule 1: each userId looked up, and whether that look-up found a person. */
  readonly userIdLookups = new Map<string, boolean>()
  /** Rule 2: persons returned by a userId look-up; persons whose tenant list was fetched. */
  readonly lookedUp = new Set<string>()
  readonly tenantsListed = new Set<string>()
  failedSignIns = 0

  constructor(
    tenants: string[],
    private readonly tokenLifetimeMs: number,
  ) {
    for (const code of tenants) this.tenants.set(code, { code, name: code, maxIdentities: 0, defaultPostBack: null, apps: new Map(), algorithms: new Map() })
  }

  issueToken(): string {
    const token = randomBytes(24).toString('base64url')
    this.tokens.set(token, Date.now() + this.tokenLifetimeMs)
    return token
  }

  tokenValid(token: string): boolean {
    const expiry = this.tokens.get(token)
    return expiry !== undefined && expiry > Date.now()
  }

  addPerson(userId: string, tenants: string[], deviceId: string | null = null): PersonRec {
    const now = Date.now()
    const person: PersonRec = { uuid: randomUUID(), userId, deviceId, tenants: new Set(tenants), created: now, modified: now }
    this.persons.set(person.uuid, person)
    return person
  }

  find(by: 'userId' | 'deviceId', value: string): PersonRec | undefined {
    return [...this.persons.values()].find((p) => p[by] === value)
  }

  /** A person's templates: BioEngine person ids are free text; the kiosk may use the uuid or the userId. */
  templatesOf(person: PersonRec): TemplateRec[] {
    return this.templates.filter((t) => t.personId === person.uuid || t.personId === person.userId)
  }

  deletePerson(person: PersonRec): void {
    this.persons.delete(person.uuid)
    this.templates = this.templates.filter((t) => t.personId !== person.uuid && t.personId !== person.userId)
  }

  snapshot(): StandinState {
    return {
      persons: [...this.persons.values()].map((p) => ({ uuid: p.uuid, userId: p.userId, deviceId: p.deviceId, tenants: [...p.tenants] })),
      templates: this.templates.map((t) => ({ personId: t.personId, templateType: t.templateType, templateContext: t.templateContext })),
      tenants: [...this.tenants.values()].map((t) => ({
        code: t.code,
        apps: [...t.apps.keys()],
        algorithms: [...t.algorithms].map(([code, a]) => ({ code, licenseData: a.licenseData, liveness: [...a.liveness] })),
      })),
    }
  }
}
