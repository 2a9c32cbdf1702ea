import type { ScreenFacesResponse } from '../../shared/listed-faces'
import type { Biometrics } from './biometrics'
import { BioErrorCode, BioInputError } from './error-codes'
import { similarityForScore } from './matching'
import type { Installed } from './plugin-caches'
import { RequestBudget } from './request-budget'
import { decodeBase64 } from './samples'
import { decodeTemplate, dot, normalize, TemplateFormatError } from './template-codec'
import { round } from './template-maths'

/**
 * POST /bioengine/screen-faces (our extension of the BioEngine API, electron/shared/listed-faces.ts):
 * whom of a caller's gallery of templates (a site's listed persons, as its pull sent them) the
 * samples match, decided as identify decides it, without enrolling or storing anything.
 */

export interface ScreenFacesInput {
  templateType: string
  samples: string[]
  gallery: Array<{ id: string; templates: string[] }>
  thresholdValue?: number | undefined
}

/**
 * The gallery persons whom at least one sample matches at the threshold (the type's own unless
 * asked), each once with their best score, best first. The gallery is read first: a template that
 * is not one of this type's is a 400 before any face is looked for. A sample without exactly one
 * readable face fails the request as in POST /biometrics; overload rejects with OverloadError (503).
 */
export async function screenFaces(bio: Biometrics, input: ScreenFacesInput, caller: string): Promise<ScreenFacesResponse> {
  const installed = bio.lookup(input.templateType)
  const { plugin } = installed
  const threshold = input.thresholdValue ?? plugin.scoreThreshold
  const gallery = input.gallery.map((person, p) => ({
    id: person.id,
    vectors: person.templates.map((template, i) => galleryVector(installed, template, `gallery person ${p + 1}, template ${i + 1}`)),
  }))
  const budget = new RequestBudget(caller)
  const probes = await budget.all(input.samples.map((sample) => bio.probe(installed, { sample }, budget)))

  const floor = similarityForScore(plugin, threshold)
  const best = new Map<string, number>()
  for (const person of gallery) {
    for (const vector of person.vectors) {
      for (const probe of probes) {
        const similarity = dot(probe, vector)
        if (similarity >= floor && similarity > (best.get(person.id) ?? -Infinity)) best.set(person.id, similarity)
      }
    }
  }
  const matches = [...best].sort(([, a], [, b]) => b - a).map(([id, similarity]) => ({ id, score: round(plugin.score(similarity)) }))
  return { matches }
}

/** A gallery template's normalised vector, checked against the type it is screened as (`what` names it by place, never by id). */
function galleryVector(installed: Installed, base64: string, what: string): Float32Array {
  const bytes = decodeBase64(base64, `The template of ${what}`)
  let template
  try {
    template = decodeTemplate(bytes)
  } catch (error) {
    if (error instanceof TemplateFormatError) throw new BioInputError(BioErrorCode.BAD_TEMPLATE, `The template of ${what}: ${error.message}`)
    throw error
  }
  const { plugin } = installed
  if (template.plugin !== plugin.name || template.modelVersion !== plugin.modelVersion || template.vector.length !== plugin.dimensions) {
    throw new BioInputError(
      BioErrorCode.TEMPLATE_TYPE_MISMATCH,
      `The template of ${what} was made by ${template.plugin} v${template.modelVersion} (${template.vector.length} values); ${installed.templateType} needs ${plugin.name} v${plugin.modelVersion} (${plugin.dimensions}).`,
    )
  }
  return normalize(template.vector)
}
