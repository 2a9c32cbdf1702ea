import { useId } from 'react'
import { Trans, useTranslation } from 'react-i18next'
import { Button } from './ui'
import { useModalDialog } from './useModalDialog'

/**
 * "Still there?": shown before an idle reset, over the screen (a result stays on it meanwhile).
 * The countdown is read out once when the dialog opens, not every second.
 */
export function StillThereDialog({ secondsLeft, onStillHere }: { secondsLeft: number; onStillHere: () => void }) {
  const { t } = useTranslation()
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
      <h2 id={`${id}-title`}>{t('idle.title')}</h2>
      <p id={`${id}-body`}>
        <Trans i18nKey="idle.body" values={{ seconds: secondsLeft }} components={{ seconds: <span data-testid="still-there-seconds" /> }} />
      </p>
      <div className="actions">
        <Button data-autofocus onClick={onStillHere}>
          {t('idle.stay')}
        </Button>
      </div>
    </dialog>
  )
}
