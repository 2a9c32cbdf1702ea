import { useTranslation } from 'react-i18next'
import { Button } from '../components/ui'
import { Badge, type BadgeProps } from './Badge'
import { PrintCard } from './PrintCard'
import { printPage } from './print'

/**
 * The badge where a check-in's result shows it: on the screen, with "Print my badge" (the shell's
 * print dialog in Electron, the browser's on the web host); only the badge reaches the paper.
 */
export function PrintableBadge(props: BadgeProps) {
  const { t } = useTranslation()
  return (
    <>
      <PrintCard>
        <Badge {...props} />
      </PrintCard>
      <div className="actions">
        <Button onClick={() => void printPage()}>{t('badge.print')}</Button>
      </div>
    </>
  )
}
