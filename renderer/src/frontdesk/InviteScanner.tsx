import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { CheckInviteResult, InviteRefusal } from '@shared/invites'
import { kiosk } from '../bridge/kiosk'
import { canvas, context2d } from '../camera/frame-canvas'
import { useCamera } from '../camera/useCamera'
import { Button, Notice } from '../components/ui'
import { readFrameCode, SCAN_WIDTH, SCANS_PER_SECOND } from './qr-scan'

export type ValidInvite = Extract<CheckInviteResult, { status: 'valid' }> & { token: string }

/**
 * The visitor holds their invitation's QR code up to the camera: frames of the same camera the
 * capture uses are searched a few times a second; a code found is checked by the services, and a
 * good one ends the scan (the camera goes off). A refused one is said in plain words, and the
 * visitor may show another.
 */
export function InviteScanner({ onFound, onCancel }: { onFound: (invite: ValidInvite) => void; onCancel: () => void }) {
  const { t } = useTranslation()
  const video = useRef<HTMLVideoElement>(null)
  const [active, setActive] = useState(true)
  const camera = useCamera(video, active)
  const [refusal, setRefusal] = useState<InviteRefusal | 'unavailable' | null>(null)
  const found = useRef(onFound)
  found.current = onFound
  const title = useRef<HTMLHeadingElement>(null)
  // The scan replaces the form: the focus goes to its heading, so a screen reader says what to do.
  useEffect(() => title.current?.focus(), [])

  useEffect(() => {
    if (camera.state.kind !== 'running' || !active) return
    const scratch = canvas(1, 1)
    // A code already answered is not sent again while it stays in front of the camera.
    let lastToken: string | null = null
    let checking = false
    let current = true
    const timer = setInterval(() => {
      const element = video.current
      if (checking || !element || !element.videoWidth) return
      const scale = Math.min(1, SCAN_WIDTH / element.videoWidth)
      scratch.width = Math.round(element.videoWidth * scale)
      scratch.height = Math.round(element.videoHeight * scale)
      const ctx = context2d(scratch, true)
      ctx.drawImage(element, 0, 0, scratch.width, scratch.height)
      const code = readFrameCode(ctx.getImageData(0, 0, scratch.width, scratch.height))
      if (!code) return
      if (code.kind === 'other') {
        setRefusal('invalid')
        return
      }
      if (code.token === lastToken) return
      lastToken = code.token
      checking = true
      kiosk
        .checkInvite({ token: code.token })
        .then((result) => {
          if (!current) return
          if (result.status === 'valid') {
            setActive(false)
            found.current({ ...result, token: code.token })
          } else setRefusal(result.reason)
        })
        .catch(() => {
          if (!current) return
          lastToken = null
          setRefusal('unavailable')
        })
        .finally(() => {
          checking = false
        })
    }, 1000 / SCANS_PER_SECOND)
    return () => {
      current = false
      clearInterval(timer)
    }
  }, [camera.state.kind, active])

  return (
    <section className="invite-scan" aria-labelledby="invite-scan-title">
      <h2 id="invite-scan-title" ref={title} tabIndex={-1}>
        {t('invite.scanTitle')}
      </h2>
      <p>{t('invite.scanHint')}</p>
      <video ref={video} className="invite-scan-video" muted playsInline aria-label={t('invite.videoLabel')} width={320} />
      {camera.state.kind === 'error' ? (
        <Notice kind="error" title={camera.state.problem.title}>
          <p>{camera.state.problem.message}</p>
        </Notice>
      ) : (
        <p aria-live="polite">{camera.state.kind === 'running' ? t('invite.looking') : t('capture.startingCamera')}</p>
      )}
      {refusal ? (
        <Notice kind="warning" title={t('invite.refusedTitle')}>
          <p data-testid="invite-refused">{t(`invite.${refusal}`)}</p>
        </Notice>
      ) : null}
      <div className="actions">
        <Button variant="secondary" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
      </div>
    </section>
  )
}
