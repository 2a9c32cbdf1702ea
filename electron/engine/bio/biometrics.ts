import { MAX_SAMPLES_PER_REQUEST } from '../../shared/api-requests'
import { normalizedFaceCrop } from '../face/crop'
import type { DetectedFace } from '../face/types'
import { canonicalPersonId } from '../store/person-id'
import type { Repositories } from '../store/store'
import type { BiometricInfo } from '../store/templates'
import { checkLicense, checkTemplateCap, lockPerson } from './enrollment-checks'
import { BioErrorCode, BioInputError } from './error-codes'
import { PluginCaches, type Installed } from './plugin-caches'
import { RequestBudget } from './request-budget'
import { faceFromSample, sampleFace, singleFace } from './samples'
import { encodeTemplate, storedVector, type Template } from './template-codec'
import { parseTemplate, round, templateOf } from './template-maths'

/**
 * Templates: enrollment (with its licence and template-cap checks, enrollment-checks.ts), template
 * creation, listing and deletion, over the installed plugins and the caches every change keeps
 * current (plugin-caches.ts). Person ids are taken in any case and used in their canonical form
 * (store/person-id.ts) everywhere, results included.
 */
export class Biometrics extends PluginCaches {
  /** A template from samples: the mean of the faces' normalised embeddings, normalised again. */
  async templateFromSamples(installed: Installed, samples: string[], caller: string): Promise<Template> {
    return templateOf(installed, (await this.sampleFaces(installed, samples, caller)).map((f) => f.face))
  }

  /** The one face in each sample, with the sample's bytes. */
  private async sampleFaces(installed: Installed, samples: string[], caller: string): Promise<Array<{ face: DetectedFace; bytes: Buffer }>> {
    if (samples.length === 0) throw new BioInputError(BioErrorCode.BAD_INPUT, 'At least one sample is needed.')
    if (samples.length > MAX_SAMPLES_PER_REQUEST) throw new BioInputError(BioErrorCode.BAD_INPUT, `At most ${MAX_SAMPLES_PER_REQUEST} samples are accepted.`)
    const budget = new RequestBudget(caller)
    return budget.all(samples.map((s, i) => sampleFace(installed.plugin, s, `sample ${i + 1}`, budget)))
  }

  /** A probe from a sample or a template, exactly one of which must be given; a sample waits for room in the request's budget. */
  async probe(installed: Installed, input: { sample?: string | undefined; template?: string | undefined }, budget: RequestBudget): Promise<Float32Array> {
    if ((input.sample === undefined) === (input.template === undefined)) {
      throw new BioInputError(BioErrorCode.BAD_INPUT, 'Give either a sample or a template.')
    }
    if (input.template !== undefined) return parseTemplate(installed, input.template).vector
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
      await checkLicense(tx, installed, id, lock)
      await checkTemplateCap(tx, id, installed.templateType, request.templateContext)
    }
    await admissible(this.store, false)
    const faces = request.samples !== undefined ? await this.sampleFaces(installed, request.samples, caller) : null
    const template = faces ? templateOf(installed, faces.map((f) => f.face)) : parseTemplate(installed, request.template!)
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
          const template = templateOf(installed, faces)
          await this.write(async (tx) => {
            await lockPerson(tx, personId)
            await checkTemplateCap(tx, personId, installed.templateType, templateContext)
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

  /** Stored vectors of one person and type, for 1:1 verification (unreadable ones left out, as in identify). */
  async vectorsOf(personId: string, templateType: string): Promise<Float32Array[]> {
    return (await this.store.templates.ofPerson(canonicalPersonId(personId), templateType)).flatMap((t) => storedVector(t.data) ?? [])
  }

  /** The person-server UUID behind a BioEngine person id, when there is one. */
  async personUuid(personId: string): Promise<string | undefined> {
    return (await this.store.persons.byBioPersonId(canonicalPersonId(personId)))?.uuid
  }
}
