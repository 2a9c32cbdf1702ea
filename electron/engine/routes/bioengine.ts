import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import multipart from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import {
  biometricInfosRecord,
  createTemplateRecord,
  enrollRecord,
  faceMatchRecord,
  identifyRecord,
  templateTypesRecord,
  verifyRecord,
} from '../../shared/api-records'
import {
  createTemplateRequest,
  enrollRequest,
  identifyRequest,
  personIdParams,
  personTypeContextParams,
  personTypeParams,
  pluginParams,
  verifyRequest,
} from '../../shared/api-requests'
import { checkImage, MATCH_IMAGE_LIMITS } from '../../shared/image-limits'
import { MAX_LISTED_FACES, SCREEN_FACES_MAX_GALLERY, screenFacesRequest, screenFacesResponse } from '../../shared/listed-faces'
import { livenessEvaluateRecord, livenessEvaluateRequest } from '../../shared/liveness'
import { evaluateLiveness } from '../bio/liveness'
import { faceMatch, identify, verify } from '../bio/matching'
import { screenFaces } from '../bio/screen-faces'
import type { EngineMetrics } from '../http/metrics'
import type { EngineContext } from '../context'
import type { FacePlugin } from '../face/types'
import { HttpError } from '../http/errors'
import { BODY_LIMITS } from '../http/limits'
import type { EngineApp } from '../http/zod-provider'
import { createZip } from '../logs/zip'

export const BIOENGINE_PREFIX = '/bioengine'

const bearer = { auth: 'bearer' } as const
const withSamples = { config: bearer, bodyLimit: BODY_LIMITS.samples }
const deleted = { response: { 200: z.object({}) } }

/** The longest plugin name a template can carry (one byte gives its length: bio/template-codec.ts). */
const MAX_PLUGIN_NAME_BYTES = 255

/**
 * POST /screen-faces's body limit: the samples' (as every call with samples), and a full gallery of
 * the largest template an installed plugin makes, twice over (base64 broken into lines, a longer
 * plugin name), with each person's id and the JSON around it. A larger template is of no installed
 * type. About 39 MB with a 1024-value plugin installed.
 */
export function screenFacesBodyLimit(plugins: readonly FacePlugin[]): number {
  const largestBytes = 13 + MAX_PLUGIN_NAME_BYTES + 4 * Math.max(0, ...plugins.map((p) => p.dimensions))
  const templateChars = 2 * 4 * Math.ceil(largestBytes / 3)
  return BODY_LIMITS.samples + SCREEN_FACES_MAX_GALLERY * (MAX_LISTED_FACES * (templateChars + 4) + 256)
}

/** The BioEngine (reference §4.4), registered under /bioengine. Every call but /match needs a JWT. */
export async function bioEngineRoutes(app: EngineApp, ctx: EngineContext, metrics: Pick<EngineMetrics, 'identified'> | undefined): Promise<void> {
  const { bio } = ctx
  await app.register(multipart, { limits: { fileSize: MATCH_IMAGE_LIMITS.maxBytes, files: 2, fields: 0, parts: 3, fieldNameSize: 100, headerPairs: 100 } })

  app.get('/logs', { config: bearer }, async (_request, reply) => {
    const files = ['engine.log', 'engine.log.1', 'plugins.log', 'plugins.log.1'].filter((name) => existsSync(join(ctx.log.dir, name)))
    const zip = createZip(files.map((name) => ({ name, data: readFileSync(join(ctx.log.dir, name)) })))
    return reply.type('application/zip').header('Content-Disposition', 'attachment; filename="bioengine-logs.zip"').send(zip)
  })

  app.get('/template-types', { config: bearer, schema: { response: { 200: templateTypesRecord } } }, async () => ({ templateTypes: bio.templateTypes() }))

  app.post(
    '/persons/:personid/biometrics',
    { ...withSamples, schema: { params: personIdParams, body: enrollRequest, response: { 201: enrollRecord } } },
    async (request, reply) => {
      const { personid } = request.params
      const result = await bio.enroll(personid, request.body, request.caller)
      request.log.info(`enrolled a ${request.body.templateType} template`)
      return reply.code(201).send(result)
    },
  )

  app.post('/biometrics', { ...withSamples, schema: { body: createTemplateRequest, response: { 201: createTemplateRecord } } }, async (request, reply) =>
    reply.code(201).send(await bio.create(request.body.templateType, request.body.samples, request.caller)),
  )

  app.get('/persons/:personid/biometrics', { config: bearer, schema: { params: personIdParams, response: { 200: biometricInfosRecord } } }, async (request) => ({
    biometricInfos: await bio.infos(request.params.personid),
  }))

  app.get('/persons/:personid/biometrics/:templatetype', { config: bearer, schema: { params: personTypeParams, response: { 200: biometricInfosRecord } } }, async (request) => ({
    biometricInfos: await bio.infos(request.params.personid, request.params.templatetype),
  }))

  const remove = async (request: FastifyRequest<{ Params: { personid: string; templatetype?: string; templatecontext?: string } }>) => {
    await bio.delete(request.params.personid, request.params.templatetype, request.params.templatecontext)
    return {}
  }
  app.delete('/persons/:personid/biometrics', { config: bearer, schema: { params: personIdParams, ...deleted } }, remove)
  app.delete('/persons/:personid/biometrics/:templatetype', { config: bearer, schema: { params: personTypeParams, ...deleted } }, remove)
  app.delete('/persons/:personid/biometrics/:templatetype/:templatecontext', { config: bearer, schema: { params: personTypeContextParams, ...deleted } }, remove)

  app.post('/identify', { ...withSamples, schema: { body: identifyRequest, response: { 200: identifyRecord } } }, async (request) => {
    const answer = await identify(bio, request.body.identifyInputs, request.caller)
    for (const { identifyResults } of answer.allIdentifyResults) {
      for (const result of identifyResults) if (result.errorCode === undefined) metrics?.identified(result.templateType, result.totalDurationMS)
    }
    return answer
  })

  app.post('/persons/:personid/verify', { ...withSamples, schema: { params: personIdParams, body: verifyRequest, response: { 200: verifyRecord } } }, async (request) =>
    verify(bio, request.params.personid, request.body.verifyInputs, request.caller),
  )

  // The embedded engine's extension: judges a liveness burst against the samples it must belong to.
  app.post('/liveness', { ...withSamples, schema: { body: livenessEvaluateRequest, response: { 200: livenessEvaluateRecord } } }, async (request) => {
    const plugin = bio.plugins.find((candidate) => candidate.analyzeLiveness)
    if (!plugin) throw new HttpError(503, 'No face plugin with liveness models is installed.')
    const result = await evaluateLiveness(plugin, request.body, request.caller)
    request.log.info(`liveness ${result.passed ? 'passed' : 'not passed'} (${request.body.checks.join(', ')}; ${request.body.frames.length} frames)`)
    return result
  })

  // The embedded engine's extension: whom of a gallery of templates (a site's listed persons, sent
  // with its pull) the samples match, as identify would decide it; nothing is stored.
  app.post(
    '/screen-faces',
    { config: bearer, bodyLimit: screenFacesBodyLimit(bio.plugins), schema: { body: screenFacesRequest, response: { 200: screenFacesResponse } } },
    async (request) => {
      const result = await screenFaces(bio, request.body, request.caller)
      request.log.info(`screen-faces: ${request.body.samples.length} samples against ${request.body.gallery.length} persons; ${result.matches.length} matched`)
      return result
    },
  )

  // Simple Face Match is open (reference §4.4); its multipart limits bound the body.
  app.post('/match', { config: { auth: 'none' }, schema: { response: { 200: faceMatchRecord } } }, async (request) => {
    if (!request.isMultipart()) throw new HttpError(400, 'Send the two images as multipart/form-data fields Image1 and Image2.')
    const images = await readMatchImages(request)
    const [plugin] = bio.plugins
    if (!plugin) throw new HttpError(500, 'No face plugin is installed.')
    return faceMatch(plugin, images.Image1, images.Image2, request.caller)
  })

  // "Recreates cache files from the database": the database includes the face crops tenants chose
  // to keep, so a missing template of an installed type is built from them first (counts logged only).
  const recreate = async (pluginName?: string) => {
    const { built, failed } = await bio.buildFromCrops(pluginName)
    if (built + failed > 0) ctx.log.engine(`templates built from kept face crops: ${built}; could not be built: ${failed}`)
    await bio.rebuildCaches(pluginName)
  }

  app.post('/createcache', { config: bearer }, async (_request, reply) => {
    await recreate()
    return reply.code(201).send()
  })

  app.post('/createplugincache/:pluginName', { config: bearer, schema: { params: pluginParams } }, async (request, reply) => {
    await recreate(request.params.pluginName)
    return reply.code(201).send()
  })
}

/** Exactly two image files, Image1 and Image2, each within the §8 limits. */
async function readMatchImages(request: FastifyRequest): Promise<{ Image1: Buffer; Image2: Buffer }> {
  const images: Partial<Record<'Image1' | 'Image2', Buffer>> = {}
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') throw new HttpError(400, `Unexpected form field ${part.fieldname}; send only Image1 and Image2.`)
      if (part.fieldname !== 'Image1' && part.fieldname !== 'Image2') {
        throw new HttpError(400, `Unexpected file field ${part.fieldname}; send exactly two images, Image1 and Image2.`)
      }
      if (images[part.fieldname]) throw new HttpError(400, `${part.fieldname} was sent twice.`)
      images[part.fieldname] = await part.toBuffer()
    }
  } catch (error) {
    if (error instanceof HttpError) throw error
    const code = (error as { code?: string }).code
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(400, `An image is larger than ${MATCH_IMAGE_LIMITS.maxBytes / 1024 / 1024} MB.`)
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw new HttpError(400, 'Send exactly two images, Image1 and Image2, and nothing else.')
    }
    throw new HttpError(400, `The multipart body could not be read: ${(error as Error).message}`)
  }
  const { Image1, Image2 } = images
  if (!Image1 || !Image2) throw new HttpError(400, 'Both Image1 and Image2 are required.')
  for (const [name, bytes] of [['Image1', Image1], ['Image2', Image2]] as const) {
    const verdict = checkImage(bytes, MATCH_IMAGE_LIMITS)
    if (!verdict.ok) throw new HttpError(400, `${name}: ${verdict.reason}`)
  }
  return { Image1, Image2 }
}
