import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { kiosk } from '../bridge/kiosk'
import { Button } from '../components/ui'
import { useStepFocus } from '../components/useStepFocus'
import { ScreenFrame } from './ScreenFrame'
import { BadgePhotoConsent } from './visits/BadgePhotoConsent'
import { FaceVisit } from './visits/FaceVisit'
import { HostFields } from './visits/HostFields'
import { useHostNames } from './visits/useHostNames'

/** "I've been here before": a returning visitor checks in by face alone; host and reason default to last time's. */
export function CheckInScreen() {
  const { t } = useTranslation()
  const hosts = useHostNames()
  const [step, setStep] = useState<'details' | 'face'>('details')
  const [hostId, setHostId] = useState('')
  const [purpose, setPurpose] = useState('')
  const [badgePhoto, setBadgePhoto] = useState(false)
  useStepFocus(step)

  return (
    <ScreenFrame title={t('screens.checkIn')} purpose={t('visit.checkInPurpose')}>
      {step === 'details' ? (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault()
            setStep('face')
          }}
        >
          <HostFields hosts={hosts} hostId={hostId} purpose={purpose} noneLabel={t('visit.hostSame')} onHost={setHostId} onPurpose={setPurpose} />
          <BadgePhotoConsent checked={badgePhoto} onChange={setBadgePhoto} />
          <div className="actions">
            <Button type="submit">{t('visit.takePhoto')}</Button>
          </div>
        </form>
      ) : (
        <FaceVisit
          send={(sample, liveness) => kiosk.checkInByFace({ sample, ...liveness, ...(hostId && { hostId }), ...(purpose.trim() && { purpose: purpose.trim() }), ...(badgePhoto && { badgePhoto }) })}
          failedTitle={t('visit.checkInFailedTitle')}
          onCancel={() => setStep('details')}
        />
      )}
    </ScreenFrame>
  )
}
