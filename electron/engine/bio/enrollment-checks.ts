import { canonicalPersonId } from '../store/person-id'
import type { Repositories } from '../store/store'
import { BioErrorCode, BioInputError } from './error-codes'
import type { Installed } from './plugin-caches'

/**
 * The most templates one person id may hold, over all types and contexts: bounds what one verify
 * reads and scores, and what one id can add to identify. Enrolling a further one is refused
 * (BioErrorCode.TOO_MANY_TEMPLATES); replacing an existing (type, context) is not.
 */
export const MAX_TEMPLATES_PER_PERSON = 100

/** Transaction locks on a person id's templates are taken under this class (PostgreSQL's two-key advisory locks). */
const PERSON_LOCK_CLASS = 0x6b696f73

export async function checkTemplateCap(tx: Repositories, personId: string, templateType: string, templateContext: string): Promise<void> {
  if (await tx.templates.has(personId, templateType, templateContext)) return // a replacement does not add one
  const held = await tx.templates.countOfPerson(personId)
  if (held >= MAX_TEMPLATES_PER_PERSON) {
    throw new BioInputError(
      BioErrorCode.TOO_MANY_TEMPLATES,
      `Person ${personId} already holds ${held} templates, the most one person may hold (${MAX_TEMPLATES_PER_PERSON}); delete some or replace one.`,
    )
  }
}

/**
 * Algorithm licences (tenant algorithm associations named after the plugin) apply at enrollment:
 * an expired licence, or one whose maxIdentities enrolled persons are reached, refuses it.
 */
export async function checkLicense(tx: Repositories, installed: Installed, personId: string, lock: boolean): Promise<void> {
  const alreadyEnrolled = (await tx.templates.infos(personId, installed.templateType)).length > 0
  for (const license of await tx.associations.licensesFor(installed.plugin.name, personId, lock)) {
    if (license.expireDate !== null && license.expireDate < Date.now()) {
      throw new BioInputError(
        BioErrorCode.LICENSE,
        `The ${installed.plugin.name} licence of tenant ${license.tenantCode} expired on ${new Date(license.expireDate).toISOString()}.`,
      )
    }
    if (license.maxIdentities && !alreadyEnrolled && license.enrolled >= license.maxIdentities) {
      throw new BioInputError(
        BioErrorCode.LICENSE,
        `The ${installed.plugin.name} licence of tenant ${license.tenantCode} allows ${license.maxIdentities} enrolled identities, and all are used.`,
      )
    }
  }
}

/**
 * Holds a person id's templates until the transaction ends, so the template cap and the licence
 * count hold when enrollments for one person race on several processes (SQLite has one writer).
 */
export async function lockPerson(tx: Repositories, personId: string): Promise<void> {
  const { sql } = tx
  if (sql.dialect === 'postgres') await sql.get('SELECT pg_advisory_xact_lock(?, hashtext(?))', [PERSON_LOCK_CLASS, canonicalPersonId(personId)])
}
