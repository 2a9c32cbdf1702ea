import { useTranslation } from 'react-i18next'
import { kiosk } from '../bridge/kiosk'
import { useNavigation } from '../store/navigation'
import { ScreenFrame } from './ScreenFrame'
import { FaceVisit } from './visits/FaceVisit'

/** Check-out: the visitor's face ends their open visit. */
export function CheckOutScreen() {
  const { t } = useTranslation()
  const go = useNavigation((s) => s.go)
  return (
    <ScreenFrame title={t('screens.checkOut')} purpose={t('visit.checkOutPurpose')}>
      <FaceVisit send={(sample, liveness) => kiosk.checkOutByFace({ sample, ...liveness })} failedTitle={t('visit.checkOutFailedTitle')} onCancel={() => go('home')} />
    </ScreenFrame>
  )
}
