import { describe, expect, it } from 'vitest'
import { languages, visitorCatalogues } from '../../renderer/src/i18n'
import meanings from '../../renderer/src/i18n/locales/meanings.json'
import { flatten, type Catalogue } from '../support/catalogues'

// The catalogues say what each visitor key means (locales/meanings.json: JSON has no comments), and
// every language's visitor words keep one standard: nothing reads as a false friend, nothing fits one
// gender only, and enrolling (a first visit) never shares a word with checking in.

type Avoid = { text: string; why: string; in?: string[] }

const base = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '')
const english = flatten(visitorCatalogues.en as Catalogue)
const codes = languages.map((l) => l.code)

describe('what the visitor keys mean', () => {
  it('says what every visitor key means, by itself or by its section, and names no key that does not exist', () => {
    const keys = meanings.keys as Record<string, string>
    const sections = meanings.sections as Record<string, string>
    for (const key of new Set([...english.keys()].map(base))) expect(keys[key] ?? sections[key.split('.')[0]!], key).toBeTruthy()
    const bases = new Set([...english.keys()].map(base))
    for (const key of Object.keys(keys)) expect(bases, `meaning of ${key}`).toContain(key)
    for (const section of Object.keys(sections)) expect(Object.keys(visitorCatalogues.en), `section ${section}`).toContain(section)
  })

  it.each(codes)('%s uses none of the words its language avoids', (code) => {
    const avoid = ((meanings.avoid as Record<string, Avoid[]>)[code] ?? []) as Avoid[]
    for (const [key, text] of flatten(visitorCatalogues[code] as Catalogue)) {
      for (const rule of avoid) {
        if (rule.in && !rule.in.includes(base(key))) continue
        expect(text.toLowerCase(), `${code} ${key}: ${rule.why}`).not.toContain(rule.text.toLowerCase())
      }
    }
  })

  it.each(codes)('%s: the first-visit tile shares no word with checking in', (code) => {
    const words = flatten(visitorCatalogues[code] as Catalogue)
    const stems = (key: string) => new Set((words.get(key)!.toLowerCase().match(/\p{L}{4,}/gu) ?? []).map((w) => w.slice(0, 6)))
    const enroll = stems('screens.enroll')
    for (const key of ['screens.checkIn', 'home.checkInHint', 'visit.checkInNow', 'visit.checkInTitle', 'visit.checkedInTitle']) {
      expect([...stems(key)].filter((s) => enroll.has(s)), `${code} ${key}`).toEqual([])
    }
  })
})
