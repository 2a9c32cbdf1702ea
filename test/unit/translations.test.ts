import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'
import { DEFAULT_LANGUAGE, i18n, languages, resetLanguage, setLanguage, visitorCatalogues } from '../../renderer/src/i18n'
import { projectRoot } from '../support/process'
import { flatten, type Catalogue } from '../support/catalogues'

// Every visitor-facing string is in every visitor language: a key missing from one catalogue, a
// plural form a language needs, or a placeholder dropped or invented fails here.

const pluralSuffix = /_(zero|one|two|few|many|other)$/

/** Base key → its forms (a plural's suffixes, or '' for a plain string). */
function byBase(entries: Map<string, string>): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>()
  for (const [key, text] of entries) {
    const match = pluralSuffix.exec(key)
    const base = match ? key.slice(0, match.index) : key
    const forms = out.get(base) ?? new Map<string, string>()
    forms.set(match?.[1] ?? '', text)
    out.set(base, forms)
  }
  return out
}

const placeholders = (text: string) => new Set([...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]))
const tags = (text: string) => [...text.matchAll(/<\/?(\w+)>/g)].map((m) => m[0]).sort()
const english = byBase(flatten(visitorCatalogues.en as Catalogue))

describe('visitor translations', () => {
  it.each(languages.map((l) => l.code).filter((code) => code !== 'en'))('%s has every visitor string English has, and no other', (code) => {
    const catalogue = byBase(flatten(visitorCatalogues[code] as Catalogue))
    expect([...catalogue.keys()].sort()).toEqual([...english.keys()].sort())
  })

  it.each(languages.map((l) => l.code))('%s has every plural form its language needs, and each string keeps its placeholders and tags', (code) => {
    const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories
    for (const [base, forms] of byBase(flatten(visitorCatalogues[code] as Catalogue))) {
      const englishForms = english.get(base)!
      const plural = englishForms.has('other')
      if (plural) expect([...forms.keys()].sort(), `${code} ${base}`).toEqual(expect.arrayContaining([...categories]))
      const expected = placeholders([...englishForms.values()].join(' '))
      for (const [form, text] of forms) {
        expect(text.trim(), `${code} ${base}_${form}`).not.toBe('')
        const used = placeholders(text)
        // A plural form may say its number in words ("two photos"); every other placeholder stays.
        for (const name of expected) if (!(plural && name === 'count')) expect(used, `${code} ${base}${form && `_${form}`} keeps {{${name}}}`).toContain(name)
        for (const name of used) expect(expected, `${code} ${base}${form && `_${form}`} invents {{${name}}}`).toContain(name)
        expect(tags(text), `${code} ${base} keeps its tags`).toEqual(tags([...englishForms.values()][0]!))
      }
    }
  })

  it('speaks each language, right to left for Arabic, and goes back to the default on reset', () => {
    setLanguage('ar')
    expect(i18n.t('home.welcome')).toBe(visitorCatalogues.ar.home.welcome)
    expect(i18n.t('liveness.secondsLeft', { count: 3 })).toBe('بقيت 3 ثوانٍ')
    expect(i18n.dir()).toBe('rtl')
    setLanguage('fr')
    expect(i18n.t('capture.allTaken', { count: 3 })).toBe('Les 3 photos sont prises.')
    expect(i18n.dir()).toBe('ltr')
    resetLanguage()
    expect(i18n.language).toBe(DEFAULT_LANGUAGE)
    expect(i18n.t('home.welcome')).toBe('Welcome')
  })

  it('refuses a literal word in a visitor screen (lint), and allows it through the translations', async () => {
    const eslint = new ESLint({ cwd: projectRoot })
    const literal = async (code: string) => {
      const [result] = await eslint.lintText(code, { filePath: `${projectRoot}/renderer/src/screens/HomeScreen.tsx` })
      return (result?.messages ?? []).filter((m) => m.ruleId === 'i18next/no-literal-string').length
    }
    const component = (jsx: string) => `import { t } from '../i18n'\nexport function A({ staff }: { staff: boolean }) {\n  return ${jsx}\n}\n`
    expect(await literal(component('<p className="welcome">Welcome</p>'))).toBe(1)
    expect(await literal(component("<p>{staff ? 'Hi staff' : 'Hi'}</p>"))).toBeGreaterThan(0)
    expect(await literal(component('<img alt="Photo of you" src="x" />'))).toBe(1)
    expect(await literal(component('<p>{`${staff} photos`}</p>'))).toBe(1)
    expect(await literal(component("<p className=\"welcome\">{t('home.welcome')}</p>"))).toBe(0)
  })
})
