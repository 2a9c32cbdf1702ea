import i18next from 'i18next'
import { initReactI18next } from 'react-i18next'
import ar from './locales/ar.json'
import en from './locales/en.json'
import es from './locales/es.json'
import fr from './locales/fr.json'
import staff from './locales/staff.en.json'

/**
 * The visitor's languages, each named in itself. Visitor-facing text lives in the `visitor`
 * namespace, in every language here (test/unit/translations.test.ts); staff screens' words are in
 * the English-only `staff` namespace for now.
 */
export const languages = [
  { code: 'en', name: 'English', dir: 'ltr' },
  { code: 'fr', name: 'Français', dir: 'ltr' },
  { code: 'es', name: 'Español', dir: 'ltr' },
  { code: 'ar', name: 'العربية', dir: 'rtl' },
] as const

export type LanguageCode = (typeof languages)[number]['code']
export const DEFAULT_LANGUAGE: LanguageCode = 'en'
export const visitorCatalogues = { en, fr, es, ar } as const

export const i18n = i18next.createInstance()
void i18n.use(initReactI18next).init({
  resources: { en: { visitor: en, staff }, fr: { visitor: fr }, es: { visitor: es }, ar: { visitor: ar } },
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: languages.map((l) => l.code),
  ns: ['visitor', 'staff'],
  defaultNS: 'visitor',
  // React escapes what it renders; escaping here too would show entities.
  interpolation: { escapeValue: false },
  // The catalogues are bundled: ready before the first render.
  initAsync: false,
})

/** The page's language and direction follow the visitor's choice (right-to-left for Arabic). */
function applyToDocument(code: string): void {
  // Typed without the DOM: the unit tests load these words in Node, where there is no page.
  const root = (globalThis as { document?: { documentElement: { lang: string; dir: string } } }).document?.documentElement
  if (!root) return
  root.lang = code
  root.dir = languages.find((l) => l.code === code)?.dir ?? 'ltr'
}
applyToDocument(i18n.language)
i18n.on('languageChanged', applyToDocument)

/** For code outside components (the camera loop, stores): words in the current language. */
export const t = i18n.t.bind(i18n) as typeof i18n.t

export function setLanguage(code: LanguageCode): void {
  void i18n.changeLanguage(code)
}

/** Back to the kiosk's default language: the next visitor starts there (idle, sign-out). */
export function resetLanguage(): void {
  if (i18n.language !== DEFAULT_LANGUAGE) setLanguage(DEFAULT_LANGUAGE)
}
