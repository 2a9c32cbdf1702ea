import { useId } from 'react'
import { Button } from './ui'
import { useModalDialog } from './useModalDialog'

/**
 * "Still there?": shown before an idle reset, over the screen (a result stays on it meanwhile).
 * The countdown is read out once when the dialog opens, not every second.
 */
export function StillThereDialog({ secondsLeft, onStillHere }: { secondsLeft: number; onStillHere: () => void }) {
  const dialog = useModalDialog()
  const id = useId()
  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      data-testid="still-there"
      onCancel={(event) => {
        // Escape means "I'm still here" too.
        event.preventDefault()
        onStillHere()
      }}
    >
      <h2 id={`${id}-title`}>Still there?</h2>
      <p id={`${id}-body`}>
        The kiosk will start over in <span data-testid="still-there-seconds">{secondsLeft} s</span> to keep the last visitor’s details private.
      </p>
      <div className="actions">
        <Button data-autofocus onClick={onStillHere}>
          I’m still here
        </Button>
      </div>
    </dialog>
  )
}
