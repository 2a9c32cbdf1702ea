import { MAX_SAMPLES_PER_REQUEST } from '../../shared/api-requests'
import { normalizedFaceCrop } from '../face/crop'
import type { DetectedFace, FacePlugin } from '../face/types'
import { HttpError } from '../http/errors'
import type { FaceCropStore } from '../store/face-crops'
import { canonicalPersonId } from '../store/person-id'
import type { PersonStore } from '../store/persons'
import type { TemplateStore, BiometricInfo } from '../store/templates'
import type { TenantStore } from '../store/tenants'
import { BioErrorCode, BioInputError } from './error-codes'
import { RequestBudget } from './request-budget'
import { decodeBase64, faceFromSample, sampleFace, singleFace } from './samples'
import { TemplateCache } from './template-cache'
import { decodeTemplate, encodeTemplate, normalize, TemplateFormatError, type Template } from './template-codec'

export const BIO_TYPE = 'Face'
/**
 * The most templates one person id may hold, over all types and contexts: bounds what one verify
 * reads and scores, and what one id can add to identify. Enrolling a further one is refused
 * (BioErrorCode.TOO_MANY_TEMPLATES); replacing an existing (type, context) is not.
 */
export const MAX_TEMPLATES_PER_PERSON = 100

export interface TemplateTypeInfo {
  templateType: string
  scoreThreshold: number
  numSamplesForEnroll: number
  isInstantiated: boolean
}

interface Installed {
  templateType: string
  plugin: FacePlugin
  cache: TemplateCache
}

/**
 * Templates and their caches: enrollment, template creation, listing and deletion, and the
 * per-plugin identify caches that every change keeps current. Person ids are taken in any case and
 * used in their canonical form (store/person-id.ts) everywhere, results included.
 */
export class Biometrics {
  private readonly installed = new Map<string, Installed>()

  constructor(
    plugins: FacePlugin[],
    private readonly templates: TemplateStore,
    private readonly persons: PersonStore,
    private readonly tenants: TenantStore,
    private readonly crops: FaceCropStore,
  ) {
    for (const plugin of plugins) {
      const templateType = `${BIO_TYPE}:${plugin.name}`
      this.installed.set(templateType, { templateType, plugin, cache: new TemplateCache(plugin.dimensions) })
    }
  }

  get plugins(): FacePlugin[] {
    return [...this.installed.values()].map((i) => i.plugin)
  }

  templateTypes(): TemplateTypeInfo[] {
    return [...this.installed.values()].map(({ templateType, plugin }) => ({
      templateType,
      scoreThreshold: plugin.scoreThreshold,
      numSamplesForEnroll: plugin.numSamplesForEnroll,
      isInstantiated: true,
    }))
  }

  /** The installed type, or a BioInputError naming the installed ones. */
  lookup(templateType: string): Installed {
    const found = this.installed.get(templateType)
    if (!found) {
      throw new BioInputError(
        BioErrorCode.UNKNOWN_TEMPLATE_TYPE,
        `Unknown template type ${JSON.stringify(templateType)}; installed: ${[...this.installed.keys()].join(', ')}.`,
      )
    }
    return found
  }

  /** A template from samples: the mean of the faces' normalised embeddings, normalised again. */
  async templateFromSamples(installed: Installed, samples: string[], caller: string): Promise<Template> {
    return this.templateOf(installed, (await this.sampleFaces(installed, samples, caller)).map((f) => f.face))
  }

  /** The one face in each sample, with the sample's bytes. */
  private async sampleFaces(installed: Installed, samples: string[], caller: string): Promise<Array<{ face: DetectedFace; bytes: Buffer }>> {
    if (samples.length === 0) throw new BioInputError(BioErrorCode.BAD_INPUT, 'At least one sample is needed.')
    if (samples.length > MAX_SAMPLES_PER_REQUEST) throw new BioInputError(BioErrorCode.BAD_INPUT, `At most ${MAX_SAMPLES_PER_REQUEST} samples are accepted.`)
    const budget = new RequestBudget(caller)
    return budget.all(samples.map((s, i) => sampleFace(installed.plugin, s, `sample ${i + 1}`, budget)))
  }

  private templateOf(installed: Installed, faces: DetectedFace[]): Template {
    const mean = new Float32Array(installed.plugin.dimensions)
    for (const face of faces) for (let d = 0; d < mean.length; d++) mean[d] = mean[d]! + face.embedding[d]!
    return {
      plugin: installed.plugin.name,
      modelVersion: installed.plugin.modelVersion,
      quality: faces.reduce((sum, f) => sum + f.quality, 0) / faces.length,
      vector: normalize(mean),
    }
  }

  /** A base64 template checked against the type it is used as. */
  parseTemplate(installed: Installed, base64: string): Template {
    let template: Template
    try {
      template = decodeTemplate(decodeBase64(base64, 'The template'))
    } catch (error) {
      if (error instanceof TemplateFormatError) throw new BioInputError(BioErrorCode.BAD_TEMPLATE, error.message)
      throw error
    }
    const { plugin } = installed
    if (template.plugin !== plugin.name || template.modelVersion !== plugin.modelVersion || template.vector.length !== plugin.dimensions) {
      throw new BioInputError(
        BioErrorCode.TEMPLATE_TYPE_MISMATCH,
        `The template was made by ${template.plugin} v${template.modelVersion}; ${installed.templateType} needs ${plugin.name} v${plugin.modelVersion}.`,
      )
    }
    normalize(template.vector)
    return template
  }

  /** A probe from a sample or a template, exactly one of which must be given; a sample waits for room in the request's budget. */
  async probe(installed: Installed, input: { sample?: string | undefined; template?: string | undefined }, budget: RequestBudget): Promise<Float32Array> {
    if ((input.sample === undefined) === (input.template === undefined)) {
      throw new BioInputError(BioErrorCode.BAD_INPUT, 'Give either a sample or a template.')
    }
    if (input.template !== undefined) return this.parseTemplate(installed, input.template).vector
    return (await faceFromSample(installed.plugin, input.sample!, 'the sample', budget)).embedding
  }

  /** A template from samples, not enrolled. Rejects with OverloadError when the face workers are overloaded. */
  async create(templateType: string, samples: string[], caller: string): Promise<{ quality: number; templatedata: string }> {
    const template = await this.templateFromSamples(this.lookup(templateType), samples, caller)
    return { quality: round(template.quality), templatedata: encodeTemplate(template).toString('base64') }
  }

  /**
   * Enrolls samples or a template for a person id. The licence and the template cap are checked
   * before inference (a quick refusal) and again, with the insert, in one transaction after it:
   * concurrent enrollments cannot all pass a check that only the first insert should pass.
   * Rejects with OverloadError when the face workers are overloaded.
   */
  async enroll(
    personId: string,
    request: { templateType: string; templateContext: string; samples?: string[] | undefined; template?: string | undefined },
    caller: string,
  ): Promise<{ quality: number; biometricInfos: BiometricInfo[] }> {
    const id = canonicalPersonId(personId)
    const installed = this.lookup(request.templateType)
    if ((request.samples === undefined) === (request.template === undefined)) {
      throw new BioInputError(BioErrorCode.BAD_INPUT, 'Give either samples or a template.')
    }
    const admissible = () => {
      this.checkLicense(installed, id)
      this.checkTemplateCap(id, installed.templateType, request.templateContext)
    }
    admissible()
    const faces = request.samples !== undefined ? await this.sampleFaces(installed, request.samples, caller) : null
    const template = faces ? this.templateOf(installed, faces.map((f) => f.face)) : this.parseTemplate(installed, request.template!)
    // Cut before the insert, so a template is never stored without the crops its tenant keeps.
    const crops = faces && this.crops.keepsCrops(id) ? await Promise.all(faces.map((f) => normalizedFaceCrop(f.bytes, f.face.box))) : []
    this.templates.atomically(() => {
      admissible()
      this.templates.put(id, installed.templateType, request.templateContext, encodeTemplate(template))
      // A template enrolled as such has no crops: older ones of this context no longer match it.
      this.crops.put(id, request.templateContext, crops)
    })
    installed.cache.put(id, request.templateContext, template.vector)
    return { quality: round(template.quality), biometricInfos: this.templates.infos(id) }
  }

  infos(personId: string, templateType?: string): BiometricInfo[] {
    return this.templates.infos(canonicalPersonId(personId), templateType)
  }

  delete(personId: string, templateType?: string, templateContext?: string): void {
    const id = canonicalPersonId(personId)
    for (const removed of this.templates.delete(id, templateType, templateContext)) {
      this.installed.get(removed.templateType)?.cache.remove(id, removed.templateContext)
    }
    this.crops.dropOrphans(id)
  }

  /**
   * Templates built from kept face crops, for each enrollment that has crops but no template of an
   * installed type (one plugin's, or all): a template-type change without the visitors coming back.
   * Returns how many were built, and how many enrollments could not be (no face found in the crops,
   * the person's template cap). Nothing of a face reaches the log, only these counts.
   */
  async buildFromCrops(pluginName?: string): Promise<{ built: number; failed: number }> {
    const targets = this.targets(pluginName)
    let built = 0
    let failed = 0
    for (const { personId, templateContext } of this.crops.keptEnrollments()) {
      for (const installed of targets) {
        if (this.templates.has(personId, installed.templateType, templateContext)) continue
        try {
          const budget = new RequestBudget('engine:crops')
          const faces = await budget.all(this.crops.crops(personId, templateContext).map((crop, i) => singleFace(installed.plugin, crop, `kept crop ${i + 1}`, budget)))
          if (faces.length === 0) throw new BioInputError(BioErrorCode.NO_FACE, 'No readable crop.')
          const template = this.templateOf(installed, faces)
          this.templates.atomically(() => {
            this.checkTemplateCap(personId, installed.templateType, templateContext)
            this.templates.put(personId, installed.templateType, templateContext, encodeTemplate(template))
          })
          installed.cache.put(personId, templateContext, template.vector)
          built++
        } catch (error) {
          if (!(error instanceof BioInputError)) throw error
          failed++
        }
      }
    }
    return { built, failed }
  }

  /** Drops a deleted person's templates (by UUID and userId, in any case) from every cache; the store already deleted the rows. */
  forgetPerson(personIds: string[]): void {
    const ids = personIds.map(canonicalPersonId)
    for (const { cache } of this.installed.values()) cache.removePerson(ids)
  }

  /** Rebuilds one plugin's cache, or all, from the database; returns how many templates were unreadable. */
  rebuildCaches(pluginName?: string): number {
    let unreadable = 0
    for (const installed of this.targets(pluginName)) {
      installed.cache.clear()
      installed.cache.reserve(this.templates.countOfType(installed.templateType))
      for (const stored of this.templates.allOfType(installed.templateType, () => unreadable++)) {
        const vector = storedVector(stored.data)
        if (vector) installed.cache.put(stored.personId, stored.templateContext, vector)
        else unreadable++
      }
    }
    return unreadable
  }

  /** One installed plugin's type, or all; a 400 naming the installed ones for an unknown plugin. */
  private targets(pluginName?: string): Installed[] {
    const targets = [...this.installed.values()].filter((i) => pluginName === undefined || i.plugin.name === pluginName)
    if (pluginName !== undefined && targets.length === 0) {
      throw new HttpError(400, `No installed plugin is named ${JSON.stringify(pluginName)}; installed: ${this.plugins.map((p) => p.name).join(', ')}.`)
    }
    return targets
  }

  cacheFor(templateType: string): TemplateCache {
    return this.lookup(templateType).cache
  }

  /** Stored vectors of one person and type, for 1:1 verification (unreadable ones left out, as in identify). */
  vectorsOf(personId: string, templateType: string): Float32Array[] {
    return this.templates.ofPerson(canonicalPersonId(personId), templateType).flatMap((t) => storedVector(t.data) ?? [])
  }

  /** The person-server UUID behind a BioEngine person id, when there is one. */
  personUuid(personId: string): string | undefined {
    return this.persons.byBioPersonId(canonicalPersonId(personId))?.uuid
  }

  private checkTemplateCap(personId: string, templateType: string, templateContext: string): void {
    if (this.templates.has(personId, templateType, templateContext)) return // a replacement does not add one
    const held = this.templates.countOfPerson(personId)
    if (held >= MAX_TEMPLATES_PER_PERSON) {
      throw new BioInputError(
        BioErrorCode.TOO_MANY_TEMPLATES,
        `Person ${personId} already holds ${held} templates, the most one person may hold (${MAX_TEMPLATES_PER_PERSON}); delete some or replace one.`,
      )
    }
  }

  /**
   * Algorithm licences (tenant algorithm associations named after the plugin) apply at enrollment:
   * an expired licence, or one whose maxIdentities enrolled persons are reached, refuses it.
   */
  private checkLicense(installed: Installed, personId: string): void {
    const alreadyEnrolled = this.templates.infos(personId, installed.templateType).length > 0
    for (const license of this.tenants.licensesFor(installed.plugin.name, personId)) {
      if (license.expireDate !== null && license.expireDate < Date.now()) {
        throw new BioInputError(
          BioErrorCode.LICENSE,
          `The ${installed.plugin.name} licence of tenant ${license.tenantCode} expired on ${new Date(license.expireDate).toISOString()}.`,
        )
      }
      if (license.maxIdentities && !alreadyEnrolled && license.enrolled >= license.maxIdentities) {
        throw new BioInputError(
          BioErrorCode.LICENSE,
          `The ${installed.plugin.name} licence of tenant ${license.tenantCode} allows ${license.maxIdentities} enrolled identities, and all are used.`,
        )
      }
    }
  }
}

/** A stored template's normalised vector, or null when it no longer passes validation (stored before it was checked). */
function storedVector(data: Buffer): Float32Array | null {
  try {
    return normalize(decodeTemplate(data).vector)
  } catch (error) {
    if (error instanceof TemplateFormatError) return null
    throw error
  }
}

export function round(value: number): number {
  return Math.round(value * 100) / 100
}
