import { useTranslation } from 'react-i18next'
import { languages, setLanguage } from '../i18n'

/** The visitor picks the kiosk's language; each is named in itself, so anyone finds theirs. */
export function LanguageChoice() {
  const { t, i18n } = useTranslation()
  return (
    <div className="language-choice" role="group" aria-label={t('home.language')}>
      {languages.map((language) => (
        <button key={language.code} type="button" lang={language.code} dir={language.dir} className="btn btn-secondary" aria-pressed={i18n.language === language.code} onClick={() => setLanguage(language.code)}>
          {language.name}
        </button>
      ))}
    </div>
  )
}
