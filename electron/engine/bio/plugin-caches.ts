import type { TemplateTypeRecord } from '../../shared/api-records'
import type { FacePlugin } from '../face/types'
import { HttpError } from '../http/errors'
import { changed } from '../store/change-log'
import type { Repositories, Store } from '../store/store'
import { BioErrorCode, BioInputError } from './error-codes'
import { IdentifyCaches } from './identify-caches'
import { TemplateCache } from './template-cache'
import { storedVector } from './template-codec'

export const BIO_TYPE = 'Face'

export type TemplateTypeInfo = TemplateTypeRecord

export interface Installed {
  templateType: string
  plugin: FacePlugin
  cache: TemplateCache
}

/**
 * The installed plugins' template types and their caches: the per-plugin identify caches that
 * every write keeps current (identify-caches.ts), and their rebuild on every process of the site.
 */
export class PluginCaches {
  private readonly installed = new Map<string, Installed>()
  readonly caches: IdentifyCaches

  constructor(
    plugins: FacePlugin[],
    protected readonly store: Store,
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

  /**
   * Rebuilds one plugin's cache, or all, from the database, here and, through the change log, on
   * every process of the site.
   */
  async rebuildCaches(pluginName?: string): Promise<void> {
    const types = this.targets(pluginName).map((i) => i.templateType)
    await this.write((tx) => changed(tx.sql, types.map((templateType) => ({ templateType, personId: null, templateContext: null }))))
  }

  /** One installed plugin's type, or all; a 400 naming the installed ones for an unknown plugin. */
  protected targets(pluginName?: string): Installed[] {
    const targets = [...this.installed.values()].filter((i) => pluginName === undefined || i.plugin.name === pluginName)
    if (pluginName !== undefined && targets.length === 0) {
      throw new HttpError(400, `No installed plugin is named ${JSON.stringify(pluginName)}; installed: ${this.plugins.map((p) => p.name).join(', ')}.`)
    }
    return targets
  }

  cacheFor(templateType: string): TemplateCache {
    return this.lookup(templateType).cache
  }
}
