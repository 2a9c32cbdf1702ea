import { useTranslation } from 'react-i18next'
import type { Visit } from '@shared/visits'
import { QrCode } from './QrCode'
import './Badge.css'

/** What a badge's QR code says: the visit, and nothing about the person (staff scan it to find the visit). */
export const visitQrText = (visitId: string): string => `kiosk-visit:${visitId}`

/** A badge is good until the end of the day the visit began (kiosk time). */
export function badgeExpiry(checkedInAt: string): Date {
  const start = new Date(checkedInAt)
  return new Date(start.getFullYear(), start.getMonth(), start.getDate(), 23, 59)
}

export interface BadgeProps {
  visit: Visit
  /**
   * The visitor's face crop (a data URL), or null. The caller passes it only when the tenant keeps
   * face crops (the engine's `keepsFaceCrops`) and this visitor consented to it on their badge;
   * otherwise the badge has no photo.
   */
  faceCrop?: string | null
}

/** A visitor's badge, in the visitor's language: name, host, date, until when, and a QR code of the visit. */
export function Badge({ visit, faceCrop = null }: BadgeProps) {
  const { t, i18n } = useTranslation()
  const day = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' })
  const until = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' })
  // The first name the visitor gave, else their e-mail: a badge says nothing else about them.
  const name = visit.firstName ?? visit.email
  return (
    <article className="badge" aria-label={t('badge.label', { name })} data-testid="badge">
      <div>
        <p className="badge-kind">{t('badge.visitor')}</p>
        <h2 className="badge-name">{name}</h2>
        <dl className="badge-facts">
          <dt>{t('badge.host')}</dt>
          <dd>{visit.hostName ?? t('badge.frontDesk')}</dd>
          <dt>{t('badge.date')}</dt>
          <dd>{day.format(new Date(visit.checkedInAt))}</dd>
          <dt>{t('badge.validUntil')}</dt>
          <dd>{until.format(badgeExpiry(visit.checkedInAt))}</dd>
        </dl>
      </div>
      <div className="badge-side">
        {faceCrop ? <img className="badge-face" src={faceCrop} alt={t('badge.photoAlt', { name })} /> : null}
        <QrCode className="badge-qr" text={visitQrText(visit.id)} label={t('badge.qrLabel')} />
      </div>
    </article>
  )
}
