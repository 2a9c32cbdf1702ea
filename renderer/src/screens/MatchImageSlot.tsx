import { useState, type DragEvent } from 'react'
import { FileChoice } from '../components/FileChoice'
import { Busy, Button } from '../components/ui'
import type { Slot, SlotState } from './match-slots'

/** One image of the face match: drop a photo, choose a file, or use the camera; it shows the last choice and what became of it. */
export function MatchImageSlot({ slot, state, onFile, onCamera, onClear }: { slot: Slot; state: SlotState; onFile: (file: File) => void; onCamera: () => void; onClear: () => void }) {
  const [over, setOver] = useState(false)
  const { image, note, reason, reading } = state
  const drop = (event: DragEvent) => {
    event.preventDefault()
    setOver(false)
    const file = event.dataTransfer.files[0]
    if (file) onFile(file)
  }
  const inputId = `match-file-${slot}`
  return (
    <section
      className={`match-slot${over ? ' drag-over' : ''}`}
      aria-labelledby={`${inputId}-title`}
      onDragOver={(event) => {
        event.preventDefault()
        setOver(true)
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      data-testid={`match-slot-${slot + 1}`}
    >
      <h2 id={`${inputId}-title`}>Image {slot + 1}</h2>
      {/* The photo with its caption under it, apart from the controls (landscape: beside them). */}
      <figure className="match-photo">
        {image ? (
          <>
            <img src={image.previewUrl} alt={`Image ${slot + 1}: ${image.description}`} width={200} />
            <figcaption>
              <span className="hint">{image.description}</span>
              {note ? (
                <span className="hint" role="status">
                  {note}
                </span>
              ) : null}
            </figcaption>
          </>
        ) : reading ? (
          <Busy label="Reading the photo…" />
        ) : (
          <figcaption className="hint">Drop a photo here, choose a file, or use the camera.</figcaption>
        )}
      </figure>
      <FileChoice
        id={inputId}
        label={
          <>
            Choose a file
            <span className="visually-hidden"> for image {slot + 1}</span>
          </>
        }
        accept="image/jpeg,image/png"
        onChange={(event) => {
          const file = event.target.files?.[0]
          // Emptied at once, so that choosing the same file again (after Clear, or a refusal) is a change too.
          event.target.value = ''
          if (file) onFile(file)
        }}
      />
      <div className="actions">
        <Button variant="secondary" onClick={onCamera}>
          Use the camera
        </Button>
        {image ? (
          <Button variant="secondary" onClick={onClear}>
            Clear
          </Button>
        ) : null}
      </div>
      {reason ? (
        <p className="field-error" role="alert">
          {reason}
        </p>
      ) : null}
    </section>
  )
}
