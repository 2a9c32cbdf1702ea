import type { DetectedFace } from '../face/types'
import { BioErrorCode, BioInputError } from './error-codes'
import type { Installed } from './plugin-caches'
import { decodeBase64 } from './samples'
import { decodeTemplate, normalize, TemplateFormatError, type Template } from './template-codec'

/** A template from faces: the mean of the faces' normalised embeddings, normalised again. */
export function templateOf(installed: Installed, faces: DetectedFace[]): Template {
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
export function parseTemplate(installed: Installed, base64: string): Template {
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

export function round(value: number): number {
  return Math.round(value * 100) / 100
}
