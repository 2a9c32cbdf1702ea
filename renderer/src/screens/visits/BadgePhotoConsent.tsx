import { useTranslation } from 'react-i18next'
import { kiosk } from '../../bridge/kiosk'
import { CheckField } from '../../components/ui'
import { useLoad } from '../staff/hooks'

/**
 * "Put my photo on my badge", unticked: offered only where the tenant keeps face crops (the services
 * say so, and check it again at the check-in); elsewhere, or when that cannot be read, nothing shows.
 */
export function BadgePhotoConsent({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  const { t } = useTranslation()
  const policy = useLoad(() => kiosk.getBadgePolicy({}))
  return policy.data?.photo ? <CheckField label={t('visit.badgePhoto')} hint={t('visit.badgePhotoHint')} checked={checked} onChange={onChange} /> : null
}
