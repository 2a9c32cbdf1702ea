import { FormData } from 'undici'
import { z } from 'zod'
import {
  biometricInfoResponseSchema,
  createTemplateResponseSchema,
  enrollResponseSchema,
  faceMatchResponseSchema,
  identifyResponseSchema,
  templateTypeResponseSchema,
  verifyResponseSchema,
  type FaceMatchResponse,
  type IdentifyResponse,
  type TemplateTypeInfo,
  type VerifyResponse,
} from '../../shared/api-models'
import type { CreateTemplateRequest, EnrollRequest, IdentifyInput, IdentifyRequest, VerifyInput, VerifyRequest } from '../../shared/api-requests'
import { screenFacesResponse, type ScreenFacesRequest, type ScreenFacesResponse } from '../../shared/listed-faces'
import { livenessEvaluateRecord, type LivenessEvaluateRecord, type LivenessEvaluateRequest } from '../../shared/liveness'
import { ApiError } from './api-error'
import { HttpClient, type RequestOptions } from './http-client'
import { withToken, type TokenProvider } from './token-provider'

/** One identify or verify input, as the wire model has it. */
export type ProbeInput = VerifyInput

const seg = encodeURIComponent
const json = { 'content-type': 'application/json', accept: 'application/json' }

/** The BioEngine's API (reference §4.4); every call but /match carries the JWT. */
export class BioEngineClient {
  readonly http: HttpClient

  constructor(
    baseUrl: string,
    readonly tokens: TokenProvider,
    timeouts: { connectTimeoutMs?: number | undefined; requestTimeoutMs?: number | undefined } = {},
  ) {
    this.http = new HttpClient({ baseUrl, name: 'The BioEngine', ...timeouts })
  }

  async templateTypes(): Promise<TemplateTypeInfo[]> {
    return (await this.call('list template types', templateTypeResponseSchema, { method: 'GET', path: '/template-types' })).templateTypes
  }

  enroll(personId: string, request: EnrollRequest) {
    return this.call('enroll', enrollResponseSchema, { method: 'POST', path: `/persons/${seg(personId)}/biometrics`, headers: json, body: JSON.stringify(request) })
  }

  createTemplate(templateType: string, samples: string[]) {
    return this.call('create template', createTemplateResponseSchema, { method: 'POST', path: '/biometrics', headers: json, body: JSON.stringify({ templateType, samples } satisfies CreateTemplateRequest) })
  }

  async biometrics(personId: string, templateType?: string) {
    const path = `/persons/${seg(personId)}/biometrics${templateType ? `/${seg(templateType)}` : ''}`
    return (await this.call('list templates', biometricInfoResponseSchema, { method: 'GET', path })).biometricInfos
  }

  /** Deletes all of a person's templates, those of one type, or one (type, context). */
  async deleteBiometrics(personId: string, templateType?: string, templateContext?: string): Promise<void> {
    if (templateContext !== undefined && templateType === undefined) throw new Error('a template context needs its template type')
    const path = `/persons/${seg(personId)}/biometrics${templateType ? `/${seg(templateType)}` : ''}${templateContext ? `/${seg(templateContext)}` : ''}`
    await this.call('delete templates', z.unknown(), { method: 'DELETE', path })
  }

  identify(inputs: IdentifyInput[]): Promise<IdentifyResponse> {
    return this.call('identify', identifyResponseSchema, { method: 'POST', path: '/identify', headers: json, body: JSON.stringify({ identifyInputs: inputs } satisfies IdentifyRequest) })
  }

  verify(personId: string, inputs: ProbeInput[]): Promise<VerifyResponse> {
    return this.call('verify', verifyResponseSchema, { method: 'POST', path: `/persons/${seg(personId)}/verify`, headers: json, body: JSON.stringify({ verifyInputs: inputs } satisfies VerifyRequest) })
  }

  /** Simple Face Match: two images as multipart Image1 and Image2 (no token needed). */
  async match(image1: Uint8Array, image2: Uint8Array): Promise<FaceMatchResponse> {
    const form = new FormData()
    form.append('Image1', new Blob([new Uint8Array(image1)]), 'image1')
    form.append('Image2', new Blob([new Uint8Array(image2)]), 'image2')
    return this.http.json('face match', faceMatchResponseSchema, { method: 'POST', path: '/match', body: form })
  }

  /** The embedded engine's own extension: whom of a gallery of templates the samples match (the watchlist's faces while a site is away; never a remote BioEngine). */
  screenFaces(request: ScreenFacesRequest): Promise<ScreenFacesResponse> {
    return this.call('screen faces', screenFacesResponse, { method: 'POST', path: '/screen-faces', headers: json, body: JSON.stringify(request) })
  }

  /** The embedded engine's own extension: judges a liveness burst against the samples (never a remote BioEngine). */
  evaluateLiveness(request: LivenessEvaluateRequest): Promise<LivenessEvaluateRecord> {
    return this.call('evaluate liveness', livenessEvaluateRecord, { method: 'POST', path: '/liveness', headers: json, body: JSON.stringify(request) })
  }

  async createCache(pluginName?: string): Promise<void> {
    const path = pluginName ? `/createplugincache/${seg(pluginName)}` : '/createcache'
    await this.call('rebuild caches', z.unknown(), { method: 'POST', path })
  }

  /** The troubleshooting logs zip. */
  async logs(): Promise<Buffer> {
    return withToken(
      this.tokens,
      async (token) => {
        const reply = await this.http.request('download logs', { method: 'GET', path: '/logs', headers: { authorization: `Bearer ${token}` } })
        if (reply.status !== 200) throw this.http.statusError('download logs', reply)
        return reply.body
      },
      isUnauthorized,
    )
  }

  close(): Promise<void> {
    return this.http.close()
  }

  private call<T extends z.ZodType>(name: string, schema: T, options: RequestOptions): Promise<z.infer<T>> {
    return withToken(this.tokens, (token) => this.http.json(name, schema, { ...options, headers: { ...options.headers, authorization: `Bearer ${token}` } }), isUnauthorized)
  }
}

const isUnauthorized = (error: unknown) => error instanceof ApiError && error.status === 401
