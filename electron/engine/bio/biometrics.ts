import { MAX_SAMPLES_PER_REQUEST } from '../../shared/api-requests'
import { normalizedFaceCrop } from '../face/crop'
import type { DetectedFace, FacePlugin } from '../face/types'
import { HttpError } from '../http/errors'
import type { TemplateTypeRecord } from '../../shared/api-records'
import { changed } from '../store/change-log'
import { canonicalPersonId } from '../store/person-id'
import type { Repositories, Store } from '../store/store'
import type { BiometricInfo } from '../store/templates'
import { BioErrorCode, BioInputError } from './error-codes'
import { IdentifyCaches } from './identify-caches'
import { RequestBudget } from './request-budget'
import { decodeBase64, faceFromSample, sampleFace, singleFace } from './samples'
import { TemplateCache } from './template-cache'
import { decodeTemplate, encodeTemplate, normalize, storedVector, TemplateFormatError, type Template } from './template-codec'

export const BIO_TYPE = 'Face'
/**
 * The most templates one person id may hold, over all types and contexts: bounds what one verify
 * reads and scores, and what one id can add to identify. Enrolling a further one is refused
 * (BioErrorCode.TOO_MANY_TEMPLATES); replacing an existing (type, context) is not.
 */
export const MAX_TEMPLATES_PER_PERSON = 100

export type TemplateTypeInfo = TemplateTypeRecord

interface Installed {
  templateType: string
  plugin: FacePlugin
  cache: TemplateCache
}

/** Transaction locks on a person id's templates are taken under this class (PostgreSQL's two-key advisory locks). */
const PERSON_LOCK_CLASS = 0x6b696f73

/**
 * Templates and their caches: enrollment, template creation, listing and deletion, and the
 * per-plugin identify caches that every change keeps current (identify-caches.ts). Person ids are
 * taken in any case and used in their canonical form (store/person-id.ts) everywhere, results included.
 */
export class Biometrics {
  private readonly installed = new Map<string, Installed>()
  readonly caches: IdentifyCaches

  constructor(
    plugins: FacePlugin[],
    private readonly store: Store,
  ) {
    for (const plugin of plugins) {
      const templateType = `${BIO_TYPE}:${plugin.name}`
      // The compact cache re-scores its near candidates from the stored vectors themselves.
      const fullVector = async (personId: string, context: string) => {
        const stored = await store.templates.one(personId, templateType, context)
        return stored ? storedVector(stored.data) : null
      }
      this.installed.set(templateType, { templateType, plugin, cache: new TemplateCache(plugin.dimensions, fullVector) })
    }
    this.caches = new IdentifyCaches(store, new Map([...this.installed].map(([type, i]) => [type, i.cache])))
  }

  /**
   * Runs `work` in one transaction, then brings this process's caches up to it: a write is
   * identifiable here when it is answered, and on the site's other processes once they catch up.
   */
  async write<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    const result = await this.store.transaction(work)
    await this.caches.catchUp()
    return result
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
    const admissible = async (tx: Repositories, lock: boolean) => {
      await this.checkLicense(tx, installed, id, lock)
      await this.checkTemplateCap(tx, id, installed.templateType, request.templateContext)
    }
    await admissible(this.store, false)
    const faces = request.samples !== undefined ? await this.sampleFaces(installed, request.samples, caller) : null
    const template = faces ? this.templateOf(installed, faces.map((f) => f.face)) : this.parseTemplate(installed, request.template!)
    // Cut before the insert, so a template is never stored without the crops its tenant keeps.
    const crops = faces && (await this.store.crops.keepsCrops(id)) ? await Promise.all(faces.map((f) => normalizedFaceCrop(f.bytes, f.face.box))) : []
    await this.write(async (tx) => {
      await lockPerson(tx, id)
      await admissible(tx, true)
      await tx.templates.put(id, installed.templateType, request.templateContext, encodeTemplate(template))
      // A template enrolled as such has no crops: older ones of this context no longer match it.
      await tx.crops.put(id, request.templateContext, crops)
    })
    return { quality: round(template.quality), biometricInfos: await this.store.templates.infos(id) }
  }

  infos(personId: string, templateType?: string): Promise<BiometricInfo[]> {
    return this.store.templates.infos(canonicalPersonId(personId), templateType)
  }

  async delete(personId: string, templateType?: string, templateContext?: string): Promise<void> {
    const id = canonicalPersonId(personId)
    await this.write(async (tx) => {
      await tx.templates.delete(id, templateType, templateContext)
      await tx.crops.dropOrphans(id)
    })
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
    for (const { personId, templateContext } of await this.store.crops.keptEnrollments()) {
      for (const installed of targets) {
        if (await this.store.templates.has(personId, installed.templateType, templateContext)) continue
        try {
          const budget = new RequestBudget('engine:crops')
          const crops = await this.store.crops.crops(personId, templateContext)
          const faces = await budget.all(crops.map((crop, i) => singleFace(installed.plugin, crop, `kept crop ${i + 1}`, budget)))
          if (faces.length === 0) throw new BioInputError(BioErrorCode.NO_FACE, 'No readable crop.')
          const template = this.templateOf(installed, faces)
          await this.write(async (tx) => {
            await lockPerson(tx, personId)
            await this.checkTemplateCap(tx, personId, installed.templateType, templateContext)
            await tx.templates.put(personId, installed.templateType, templateContext, encodeTemplate(template))
          })
          built++
        } catch (error) {
          if (!(error instanceof BioInputError)) throw error
          failed++
        }
      }
    }
    return { built, failed }
  }

  /**
   * Rebuilds one plugin's cache, or all, from the database, here and, through the change log, on
   * every process of the site.
   */
  async rebuildCaches(pluginName?: string): Promise<void> {
    const types = this.targets(pluginName).map((i) => i.templateType)
    await this.write((tx) => changed(tx.sql, types.map((templateType) => ({ templateType, personId: null, templateContext: null }))))
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
  async vectorsOf(personId: string, templateType: string): Promise<Float32Array[]> {
    return (await this.store.templates.ofPerson(canonicalPersonId(personId), templateType)).flatMap((t) => storedVector(t.data) ?? [])
  }

  /** The person-server UUID behind a BioEngine person id, when there is one. */
  async personUuid(personId: string): Promise<string | undefined> {
    return (await this.store.persons.byBioPersonId(canonicalPersonId(personId)))?.uuid
  }

  private async checkTemplateCap(tx: Repositories, personId: string, templateType: string, templateContext: string): Promise<void> {
    if (await tx.templates.has(personId, templateType, templateContext)) return // a replacement does not add one
    const held = await tx.templates.countOfPerson(personId)
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
  private async checkLicense(tx: Repositories, installed: Installed, personId: string, lock: boolean): Promise<void> {
    const alreadyEnrolled = (await tx.templates.infos(personId, installed.templateType)).length > 0
    for (const license of await tx.tenants.licensesFor(installed.plugin.name, personId, lock)) {
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

/**
 * Holds a person id's templates until the transaction ends, so the template cap and the licence
 * count hold when enrollments for one person race on several processes (SQLite has one writer).
 */
async function lockPerson(tx: Repositories, personId: string): Promise<void> {
  const { sql } = tx
  if (sql.dialect === 'postgres') await sql.get('SELECT pg_advisory_xact_lock(?, hashtext(?))', [PERSON_LOCK_CLASS, canonicalPersonId(personId)])
}

export function round(value: number): number {
  return Math.round(value * 100) / 100
}
