import { startFacePlugin, type FacePluginSpec } from './plugin'
import { FACE_PLUGIN_SPECS } from './specs'
import type { FacePlugin, FacePluginOptions } from './types'

export { FaceImageError, type DetectedFace, type FacePlugin, type FacePluginOptions, type LivenessFace } from './types'
export { cosineSimilarity } from './score'
export { OverloadError } from './overload'
export type { PoolStats } from './pool'

/**
 * Starts every face plugin (each proving its model loads in one worker thread, in parallel) and
 * returns those that came up, in the order of FACE_PLUGIN_SPECS. A plugin that fails to load is
 * logged and left out, so one broken model does not take face recognition down; if none loads, this
 * rejects.
 */
export async function loadFacePlugins(options: FacePluginOptions, specs: readonly FacePluginSpec[] = FACE_PLUGIN_SPECS): Promise<FacePlugin[]> {
  const settled = await Promise.allSettled(specs.map((spec) => startFacePlugin(spec, options)))
  const plugins: FacePlugin[] = []
  const failures: string[] = []
  settled.forEach((outcome, i) => {
    const name = specs[i]?.name ?? '?'
    if (outcome.status === 'fulfilled') plugins.push(outcome.value)
    else {
      const message = outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason)
      failures.push(`${name}: ${message}`)
      options.log(`face plugin ${name} unavailable: ${message}`)
    }
  })
  if (plugins.length === 0) throw new Error(`no face plugin could be loaded (${failures.join('; ')})`)
  return plugins
}
