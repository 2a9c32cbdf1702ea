import type { ReactNode } from 'react'

/**
 * Every screen's frame: its title (the heading focus can be moved to) and purpose, then its content.
 * Staff screens get the staff look (`staff`).
 */
export function ScreenFrame({ title, purpose, staff = false, children }: { title: string; purpose: ReactNode; staff?: boolean; children?: ReactNode }) {
  return (
    <section className={staff ? 'screen staff-screen' : 'screen'}>
      <h1 id="screen-title" tabIndex={-1}>
        {title}
      </h1>
      <p className="purpose">{purpose}</p>
      {children ?? <p className="not-yet">This screen is not available yet.</p>}
    </section>
  )
}
