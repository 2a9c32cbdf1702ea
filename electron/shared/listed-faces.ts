import { z } from 'zod'
import { MAX_SAMPLES_PER_REQUEST, MAX_SAMPLE_CHARS, MAX_TEMPLATE_CHARS, templateType } from './api-requests'

/**
 * The faces of the persons on a site's watchlist, as its kiosks keep them to screen faces while the
 * site is away, and our engine's own call that compares a visitor's samples with them.
 *
 * - The site sends each listed person's newest templates with their watchlist entry (a pull's
 *   `faces`): the BioEngine's template binary, base64, of the site's template types.
 * - A kiosk asks its own engine (POST /screen-faces: our extension, never a vendor's BioEngine)
 *   whom of a gallery of such templates its samples match, at the engine's identify threshold:
 *   the decision the site's 1:N would have made online.
 */

/** The most templates of one listed person a site sends (its newest). */
export const MAX_LISTED_FACES = 3
/** The most persons one POST /screen-faces compares with: a kiosk sends a longer watchlist in parts. */
export const SCREEN_FACES_MAX_GALLERY = 200

export const listedFaceSchema = z.object({ templateType: z.string().max(100), template: z.string().max(MAX_TEMPLATE_CHARS) })
export type ListedFace = z.infer<typeof listedFaceSchema>

export const screenFacesRequest = z.strictObject({
  templateType,
  samples: z.array(z.string().max(MAX_SAMPLE_CHARS, 'is larger than a 5 MB image')).min(1).max(MAX_SAMPLES_PER_REQUEST),
  /** `id`: the caller's name for the person (a kiosk uses the site's person id). */
  gallery: z
    .array(z.strictObject({ id: z.string().min(1).max(128), templates: z.array(z.string().max(MAX_TEMPLATE_CHARS, 'is larger than any template')).min(1).max(MAX_LISTED_FACES) }))
    .min(1)
    .max(SCREEN_FACES_MAX_GALLERY),
  /** The identify threshold on the 0–100 score scale; absent: the template type's own. */
  thresholdValue: z.number().min(0).max(100).optional(),
})
export type ScreenFacesRequest = z.input<typeof screenFacesRequest>

/** The gallery's persons whom at least one sample matches at the threshold, best score first, each once. */
export const screenFacesResponse = z.object({ matches: z.array(z.object({ id: z.string(), score: z.number() })) })
export type ScreenFacesResponse = z.infer<typeof screenFacesResponse>
