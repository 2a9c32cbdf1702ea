import type { ReactNode } from 'react'
import { createPortal } from 'react-dom'
import './PrintCard.css'

/**
 * A card that is what prints: shown where it stands on the screen, and copied straight under
 * <body>, where the print styles keep it alone on the page (the rest of the kiosk, its navigation
 * and other screens, never reach the paper).
 */
export function PrintCard({ children }: { children: ReactNode }) {
  return (
    <>
      <div className="print-card-preview">{children}</div>
      {createPortal(
        <div className="print-only" aria-hidden="true">
          {children}
        </div>,
        document.body,
      )}
    </>
  )
}
