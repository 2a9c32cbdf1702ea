import type { Backend } from '../backend'

/** BioEngine administration: installed template types, cache rebuilds, the troubleshooting logs. */
export function engineAdmin(backend: Backend) {
  return {
    templateTypes: () => backend.bio.templateTypes(),
    async rebuildCaches(pluginName?: string): Promise<{ ok: true }> {
      await backend.bio.createCache(pluginName)
      return { ok: true }
    },
    /** The logs zip as data: the renderer saves it where the operator chooses (no paths cross IPC). */
    async logs(now = new Date()): Promise<{ fileName: string; contentBase64: string; bytes: number }> {
      const zip = await backend.bio.logs()
      const stamp = now.toISOString().replace(/[:.]/g, '-').slice(0, 19)
      return { fileName: `bioengine-logs-${stamp}.zip`, contentBase64: zip.toString('base64'), bytes: zip.length }
    },
  }
}
