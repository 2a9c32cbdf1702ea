import { MAX_LISTED_FACES, type ListedFace } from '../../shared/listed-faces'
import { canonicalPersonId } from '../store/person-id'
import type { Repositories } from '../store/store'
import type { StoredTemplate } from '../store/templates'
import type { Installed } from './plugin-caches'
import { decodeTemplate, TemplateFormatError } from './template-codec'

/**
 * The most faces one watchlist entry carries on the wire (copiedWatchlistEntrySchema): newest of
 * each installed type, for the first two types. A site with more plugins sends the first two's.
 */
const MAX_FACES_PER_ENTRY = MAX_LISTED_FACES * 2

/**
 * A listed person's faces as a site's pull sends them (electron/shared/listed-faces.ts): of each
 * installed template type, the person's newest MAX_LISTED_FACES templates, wherever they are
 * enrolled (under the person's uuid or userId, store/persons.ts), base64. None for a person the
 * person server does not know or who has no template: the kiosk screens them by id and e-mail.
 * Templates that no longer decode, or were made by another model than the installed plugin's (kept
 * from before an upgrade), are left out: a kiosk's screen-faces would refuse its whole gallery.
 */
export function listedFaces(store: Pick<Repositories, 'persons' | 'templates'>, installed: readonly Installed[]): (personUuid: string) => Promise<ListedFace[]> {
  return async (personUuid) => {
    const person = await store.persons.byUuid(canonicalPersonId(personUuid))
    if (!person) return []
    const ids = [...new Set([person.uuid, person.userId].map(canonicalPersonId))]
    const faces: ListedFace[] = []
    for (const { templateType, plugin } of installed) {
      const stored = (await Promise.all(ids.map((id) => store.templates.ofPerson(id, templateType)))).flat()
      const usable = stored.filter((t) => madeBy(t, plugin)).sort((a, b) => b.created - a.created)
      for (const t of usable.slice(0, MAX_LISTED_FACES)) faces.push({ templateType, template: t.data.toString('base64') })
    }
    return faces.slice(0, MAX_FACES_PER_ENTRY)
  }
}

function madeBy(stored: StoredTemplate, plugin: Installed['plugin']): boolean {
  try {
    const template = decodeTemplate(stored.data)
    return template.plugin === plugin.name && template.modelVersion === plugin.modelVersion && template.vector.length === plugin.dimensions
  } catch (error) {
    if (error instanceof TemplateFormatError) return false
    throw error
  }
}
