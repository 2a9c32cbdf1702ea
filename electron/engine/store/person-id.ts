/**
 * BioEngine person ids are ASCII case-insensitive everywhere: templates, identify caches and the
 * link to persons (whose userId is unique COLLATE NOCASE, and whose UUID may arrive upper-case).
 * This is their one canonical form: ASCII letters lower-cased, as SQLite's NOCASE and lower() fold.
 */
export function canonicalPersonId(personId: string): string {
  return personId.replace(/[A-Z]+/g, (letters) => letters.toLowerCase())
}
