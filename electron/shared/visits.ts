import { z } from 'zod'
import { email } from './email'

/**
 * The front desk's records (issue 31): hosts who receive visitors, and visits. One wire model for
 * the services, the renderer and the host notifications; each feature module extends it beside
 * its own methods.
 */

const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'not an id')
const isoTime = z.iso.datetime({ offset: true })

/** A person staff list as someone visitors come to see. The e-mail and webhook are where they are told of an arrival. */
export const hostSchema = z.object({
  id,
  name: z.string().trim().min(1).max(120),
  email: email.nullable(),
  /** https (or http to loopback, for tests and a local relay) URL that receives a signed POST on each arrival. */
  webhookUrl: z.url().max(2048).nullable(),
})
export type Host = z.infer<typeof hostSchema>

/** A visit: who came, to see whom, why, when in and out, at which kiosk. */
export const visitSchema = z.object({
  id,
  /** The enrolled person (person server uuid) who checked in. */
  personUuid: z.uuid(),
  /** Their e-mail (the person server's userId). */
  email,
  /** What the visitor gave as their first name; null when they gave none. */
  firstName: z.string().trim().min(1).max(80).nullable(),
  hostId: id.nullable(),
  hostName: z.string().max(120).nullable(),
  purpose: z.string().trim().max(200),
  checkedInAt: isoTime,
  checkedOutAt: isoTime.nullable(),
  /** Who ended it: the visitor at a kiosk, staff, or nobody (ended as forgotten). */
  checkedOutBy: z.enum(['visitor', 'staff']).nullable(),
  kioskId: z.string().max(128),
  /** The invite this visit came from, if any. */
  inviteId: id.nullable(),
})
export type Visit = z.infer<typeof visitSchema>

/** What a host is told when their visitor arrives: no face, no score, nothing beyond the visit. */
export const arrivalNoticeSchema = z.object({
  visitId: id,
  host: hostSchema,
  visitorName: z.string().max(254),
  purpose: z.string().max(200),
  arrivedAt: isoTime,
  kioskId: z.string().max(128),
})
export type ArrivalNotice = z.infer<typeof arrivalNoticeSchema>
