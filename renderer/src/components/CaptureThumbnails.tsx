import type { CapturedSample } from './GuidedCapture'
import { Button } from './ui'

/** The photos taken so far, each with its quality and a "Retake" button. */
export function CaptureThumbnails({ samples, onRetake }: { samples: CapturedSample[]; onRetake: (index: number) => void }) {
  if (samples.length === 0) return null
  return (
    <ul className="thumbs gc-thumbs" aria-label="Photos taken">
      {samples.map((sample, i) => (
        <li key={sample.dataUrl.slice(-32) + i}>
          <img src={sample.dataUrl} alt={`Photo ${i + 1}`} width={160} height={Math.round((160 * sample.height) / sample.width)} />
          <span className="hint">Quality {Math.round(sample.quality * 100)} %</span>
          <Button variant="secondary" onClick={() => onRetake(i)}>
            Retake photo {i + 1}
          </Button>
        </li>
      ))}
    </ul>
  )
}
