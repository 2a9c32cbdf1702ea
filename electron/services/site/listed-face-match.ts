import { MAX_LISTED_FACES, SCREEN_FACES_MAX_GALLERY, type ListedFace } from '../../shared/listed-faces'
import type { BioEngineClient } from '../clients/bioengine'

/** A listed person's faces as the site copy keeps them. */
export interface ListedFaces {
  personUuid: string
  faces: readonly ListedFace[]
}

/**
 * Whom of the listed persons the visitor's samples match, asked of the kiosk's own engine (our
 * engine's POST /screen-faces) with the copy's templates, type by type, at the identify threshold
 * the kiosk uses (its override, else the type's own): the decision the site's 1:N makes online.
 * A type the own engine does not make is refused by it, and the caller fails closed.
 */
export async function matchListedFaces(bio: Pick<BioEngineClient, 'screenFaces'>, thresholdValue: number | null, samples: readonly string[], listed: readonly ListedFaces[]): Promise<string[]> {
  const byType = new Map<string, Array<{ id: string; templates: string[] }>>()
  for (const { personUuid, faces } of listed) {
    for (const templateType of new Set(faces.map((face) => face.templateType))) {
      const templates = faces.filter((face) => face.templateType === templateType).map((face) => face.template).slice(0, MAX_LISTED_FACES)
      byType.set(templateType, [...(byType.get(templateType) ?? []), { id: personUuid, templates }])
    }
  }
  const matched = new Set<string>()
  for (const [templateType, gallery] of byType) {
    for (let at = 0; at < gallery.length; at += SCREEN_FACES_MAX_GALLERY) {
      const reply = await bio.screenFaces({ templateType, samples: [...samples], gallery: gallery.slice(at, at + SCREEN_FACES_MAX_GALLERY), ...(thresholdValue === null ? {} : { thresholdValue }) })
      for (const match of reply.matches) matched.add(match.id)
    }
  }
  return [...matched]
}
