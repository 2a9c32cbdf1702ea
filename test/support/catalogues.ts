/** A translation catalogue as i18next reads it: nested sections of strings. */
export type Catalogue = { [key: string]: string | Catalogue }

/** Every string of a catalogue under its dotted key. */
export function flatten(catalogue: Catalogue, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  for (const [key, value] of Object.entries(catalogue)) {
    if (typeof value === 'string') out.set(prefix + key, value)
    else for (const [inner, text] of flatten(value, `${prefix}${key}.`)) out.set(inner, text)
  }
  return out
}
