import { qrPath } from './qr-path'

/** A QR code of `text`, `label` naming it for screen readers. Rendered synchronously (no canvas), so it is there when the page prints. */
export function QrCode({ text, label, className }: { text: string; label: string; className?: string }) {
  const { path, size } = qrPath(text)
  return (
    <svg className={className} role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} shapeRendering="crispEdges" data-qr={text}>
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  )
}
