import { useTranslation } from 'react-i18next'
import { qualityWords, type CapturedSample } from '../camera/sample'
import { Button } from './ui'

/** The photos taken so far, each with a word on how it passed the checks and a "Retake" button. */
export function CaptureThumbnails({ samples, onRetake }: { samples: CapturedSample[]; onRetake: (index: number) => void }) {
  const { t } = useTranslation()
  if (samples.length === 0) return null
  return (
    <ul className="thumbs gc-thumbs" aria-label={t('capture.photosTaken')}>
      {samples.map((sample, i) => (
        <li key={sample.dataUrl.slice(-32) + i}>
          <img src={sample.dataUrl} alt={t('capture.thumbAlt', { number: i + 1 })} width={160} height={Math.round((160 * sample.height) / sample.width)} />
          <span className="hint" data-testid="photo-quality">
            {qualityWords(sample)}
          </span>
          <Button variant="secondary" onClick={() => onRetake(i)}>
            {t('capture.retakeOne', { number: i + 1 })}
          </Button>
        </li>
      ))}
    </ul>
  )
}
