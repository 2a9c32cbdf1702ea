import 'i18next'
import type en from './locales/en.json'
import type staff from './locales/staff.en.json'

// Keys are checked at compile time against the English catalogues.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'visitor'
    resources: { visitor: typeof en; staff: typeof staff }
  }
}
