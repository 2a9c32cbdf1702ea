import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { kiosk } from '../../bridge/kiosk'
import { CheckField } from '../../components/ui'

/**
 * "Put my photo on my badge", unticked: offered only where the tenant keeps face crops (the services
 * say so, and check it again at the check-in); elsewhere, or when that cannot be read, nothing shows.
 */
export function BadgePhotoConsent({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  const { t } = useTranslation()
  const [offered, setOffered] = useState(false)
  useEffect(() => {
    let live = true
    kiosk
      .getBadgePolicy({})
      .then((policy) => live && setOffered(policy.photo))
      .catch(() => {})
    return () => {
      live = false
    }
  }, [])
  return offered ? <CheckField label={t('visit.badgePhoto')} hint={t('visit.badgePhotoHint')} checked={checked} onChange={onChange} /> : null
}
