import type { ReactNode } from 'react'

/**
 * Every screen's frame: its title (the heading focus can be moved to) and purpose, then its content.
 * Staff screens get the staff look (`staff`).
 */
export function ScreenFrame({ title, purpose, staff = false, children }: { title: string; purpose: ReactNode; staff?: boolean; children?: ReactNode }) {
  return (
    // Staff screens are in English for now: marked so, left to right, whatever the visitor chose.
    <section className={staff ? 'screen staff-screen' : 'screen'} lang={staff ? 'en' : undefined} dir={staff ? 'ltr' : undefined}>
      <h1 id="screen-title" tabIndex={-1}>
        {title}
      </h1>
      <p className="purpose">{purpose}</p>
      {children}
    </section>
  )
}
