import type { ReactNode } from 'react'

export function ScreenFrame({ title, purpose, children }: { title: string; purpose: string; children?: ReactNode }) {
  return (
    <section className="screen">
      <h1 id="screen-title">{title}</h1>
      <p className="purpose">{purpose}</p>
      {children ?? <p className="not-yet">This screen is not available yet.</p>}
    </section>
  )
}
