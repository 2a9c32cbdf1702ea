import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import multipart from '@fastify/multipart'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { checkImage, MATCH_IMAGE_LIMITS } from '../../shared/image-limits'
import { requireBearer } from '../auth/guard'
import { MAX_SAMPLES } from '../bio/biometrics'
import { faceMatch, identify, verify } from '../bio/matching'
import type { EngineContext } from '../context'
import { HttpError } from '../http/errors'
import { bioPersonId, parse, templateContext, templateType } from '../http/params'
import { createZip } from '../logs/zip'

export const BIOENGINE_PREFIX = '/bioengine'
const MAX_INPUTS = 100

const enrollBody = z.object({
  templateType,
  templateContext,
  samples: z.array(z.string()).max(MAX_SAMPLES).optional(),
  template: z.string().optional(),
})
const createBody = z.object({ templateType, samples: z.array(z.string()).min(1).max(MAX_SAMPLES) })
const identifyBody = z.object({ identifyInputs: z.array(z.unknown()).min(1).max(MAX_INPUTS) })
const verifyBody = z.object({ verifyInputs: z.array(z.unknown()).min(1).max(MAX_INPUTS) })

type PersonParams = { personid: string; templatetype?: string; templatecontext?: string }

/** The BioEngine (reference §4.4), registered under /bioengine. Every call but /match needs a JWT. */
export async function bioEngineRoutes(app: FastifyInstance, ctx: EngineContext): Promise<void> {
  const { bio } = ctx
  await app.register(multipart, { limits: { fileSize: MATCH_IMAGE_LIMITS.maxBytes, files: 2, fields: 0, parts: 3 } })

  app.addHook('preHandler', async (request) => {
    if (request.routeOptions.url === `${BIOENGINE_PREFIX}/match`) return // Simple Face Match is open
    await requireBearer(request, ctx.tokens)
  })

  const personParams = (params: PersonParams) => ({
    personId: parse(bioPersonId, params.personid, 'personid'),
    templateType: params.templatetype === undefined ? undefined : parse(templateType, params.templatetype, 'templatetype'),
    templateContext: params.templatecontext === undefined ? undefined : parse(templateContext, params.templatecontext, 'templatecontext'),
  })

  app.get('/logs', async (_request, reply) => {
    const files = ['engine.log', 'engine.log.1', 'plugins.log', 'plugins.log.1'].filter((name) => existsSync(join(ctx.log.dir, name)))
    const zip = createZip(files.map((name) => ({ name, data: readFileSync(join(ctx.log.dir, name)) })))
    return reply.type('application/zip').header('Content-Disposition', 'attachment; filename="bioengine-logs.zip"').send(zip)
  })

  app.get('/template-types', async () => ({ templateTypes: bio.templateTypes() }))

  app.post<{ Params: PersonParams }>('/persons/:personid/biometrics', async (request, reply) => {
    const { personId } = personParams(request.params)
    const body = parse(enrollBody, request.body, 'body')
    const result = await bio.enroll(personId, body, request.ip)
    ctx.log.engine(`enrolled ${body.templateType}/${body.templateContext} for ${personId}`)
    return reply.code(201).send(result)
  })

  app.post('/biometrics', async (request, reply) => {
    const body = parse(createBody, request.body, 'body')
    return reply.code(201).send(await bio.create(body.templateType, body.samples, request.ip))
  })

  app.get<{ Params: PersonParams }>('/persons/:personid/biometrics', async (request) => {
    const { personId } = personParams(request.params)
    return { biometricInfos: bio.infos(personId) }
  })

  app.get<{ Params: PersonParams }>('/persons/:personid/biometrics/:templatetype', async (request) => {
    const { personId, templateType: type } = personParams(request.params)
    return { biometricInfos: bio.infos(personId, type) }
  })

  const remove = async (request: FastifyRequest<{ Params: PersonParams }>) => {
    const { personId, templateType: type, templateContext: context } = personParams(request.params)
    bio.delete(personId, type, context)
    return {}
  }
  app.delete<{ Params: PersonParams }>('/persons/:personid/biometrics', remove)
  app.delete<{ Params: PersonParams }>('/persons/:personid/biometrics/:templatetype', remove)
  app.delete<{ Params: PersonParams }>('/persons/:personid/biometrics/:templatetype/:templatecontext', remove)

  app.post('/identify', async (request) => identify(bio, parse(identifyBody, request.body, 'body').identifyInputs, request.ip))

  app.post<{ Params: PersonParams }>('/persons/:personid/verify', async (request) => {
    const { personId } = personParams(request.params)
    return verify(bio, personId, parse(verifyBody, request.body, 'body').verifyInputs, request.ip)
  })

  app.post('/match', async (request) => {
    if (!request.isMultipart()) throw new HttpError(400, 'Send the two images as multipart/form-data fields Image1 and Image2.')
    const images = await readMatchImages(request)
    const [plugin] = bio.plugins
    if (!plugin) throw new HttpError(500, 'No face plugin is installed.')
    return faceMatch(plugin, images.Image1, images.Image2, request.ip)
  })

  app.post('/createcache', async (_request, reply) => {
    bio.rebuildCaches()
    return reply.code(201).send()
  })

  app.post<{ Params: { pluginName: string } }>('/createplugincache/:pluginName', async (request, reply) => {
    bio.rebuildCaches(request.params.pluginName)
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
