import { useEffect, useId, useRef } from 'react'
import { Button } from './ui'

/**
 * "Still there?": shown before an idle reset, over the screen (a result stays on it meanwhile).
 * The countdown is read out once when the dialog opens, not every second.
 */
export function StillThereDialog({ secondsLeft, onStillHere }: { secondsLeft: number; onStillHere: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null)
  const id = useId()
  useEffect(() => {
    const element = dialog.current
    if (!element) return
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    if (!element.open) element.showModal()
    element.querySelector<HTMLElement>('[data-autofocus]')?.focus()
    return () => {
      if (element.open) element.close()
      if (opener?.isConnected) opener.focus()
    }
  }, [])
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
