import { create } from 'qrcode'

/** Modules of white space around the code, as the QR standard asks, so a camera finds its edges. */
const QUIET = 4

/** The dark modules of `text` as one SVG path: drawn, not a bitmap, so it prints sharp at any size. */
export function qrPath(text: string): { path: string; size: number } {
  const { modules } = create(text, { errorCorrectionLevel: 'M' })
  let path = ''
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) path += `M${col + QUIET} ${row + QUIET}h1v1h-1z`
    }
  }
  return { path, size: modules.size + 2 * QUIET }
}

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
