/** The stand-in's public types (re-exported by index.ts). */

export type VariantName = 'vendor' | 'engine-like' | 'spring'

/** How the stand-in words the replies whose shape the reference leaves unshown. */
export interface ReplyVariant {
  /** 'id': the vendor's Jackson-serialised Person entity ({id, userId, data, …}, no uuid); 'uuid': {uuid, userId, deviceId, created, modified}; 'both': the union. */
  personShape: 'id' | 'uuid' | 'both'
  /** Person lists, tenant-user lists, a tenant's apps, a person's tenants. */
  listShape: 'array' | 'page' | 'spring'
  /** Liveness entries in a tenant record's algorithms: ['BLINK'] or [{code, name}]. */
  livenessShape: 'strings' | 'objects'
  /** Template types' scoreThreshold and identify/verify scores: 0–1 (threshold 0.8) or 0–100 (threshold 48). /match is always 0–100. */
  scoreScale: 'unit' | 'percent'
  /** FaceMatchResponse: status/score/pass/durationMS or Status/Score/Pass/DurationMS. */
  faceMatchCase: 'lower' | 'capitalised'
  /** Enroll's 201 body: {quality} or {biometricInfos: [...]} (the reference lists both models). */
  enrollReply: 'quality' | 'biometricInfos'
  /** Add unknown fields to every JSON object in every reply. */
  extraFields: boolean
}

export interface StandinOptions {
  variant?: ReplyVariant | VariantName
  clientId: string
  clientSecret: string
  /** How the token endpoint decodes HTTP Basic: 'plain' = base64(id:secret) as the vendor's own Java sample sends it; 'form-urlencoded' = RFC 6749 §2.3.1 (id and secret URL-encoded before base64). */
  basicEncoding?: 'plain' | 'form-urlencoded'
  /** Tenant codes that exist at start (default ['KIOSK']). */
  tenants?: string[]
  /** When set, the BioEngine accepts only this JWT (the kiosk's 'stored-jwt' mode); otherwise it accepts tokens issued by the person server. */
  bioEngineJwt?: string
  /** Default 3600. */
  tokenLifetimeSeconds?: number
}

/** A request that broke the reference. `rule` is a stable dotted name (see README.md). */
export interface Departure {
  method: string
  /** As received: path and query. */
  path: string
  rule: string
  detail: string
}

export type FaultKind = 'status500' | 'garbage' | 'hang' | 'reset' | 'expired-token' | 'lost-reply'

export interface FaultRule {
  server?: 'person' | 'bio'
  method?: string
  /** Tested against the request's path and query as received (BioEngine paths include /bioengine). */
  path: RegExp
  fault: FaultKind
  /** How many matching requests get the fault (default 1). */
  times?: number
}

export interface RequestRecord {
  server: 'person' | 'bio'
  method: string
  path: string
  /** Status sent; null when no reply was sent (hang, reset, lost-reply, dropped connection). */
  status: number | null
  fault: FaultKind | null
}

export interface StandinState {
  persons: Array<{ uuid: string; userId: string; deviceId: string | null; tenants: string[] }>
  templates: Array<{ personId: string; templateType: string; templateContext: string }>
  tenants: Array<{ code: string; apps: string[]; algorithms: Array<{ code: string; licenseData: unknown; liveness: string[] }> }>
}

export interface Standin {
  personServerUrl: string
  /** A separate listener, with the base path /bioengine (to catch clients that drop it). */
  bioEngineUrl: string
  departures: Departure[]
  requests: RequestRecord[]
  /** Token requests refused for bad or missing client credentials. */
  readonly failedSignIns: number
  inject(rule: FaultRule): void
  /** Offline: every new connection is destroyed at once (a lost network), and so are open ones. */
  setOnline(online: boolean): void
  state(): StandinState
  /** Seeds a person (not counted as a look-up); returns the uuid. */
  addPerson(userId: string, tenants: string[], deviceId?: string): string
  /** Deletes a person and their templates, as another client of the servers would (the kiosk is not told). */
  removePerson(userId: string): void
  addApp(tenant: string, appCode: string, name?: string): void
  close(): Promise<void>
}
