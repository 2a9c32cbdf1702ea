/**
 * WCAG 2.x contrast: relative luminance of an sRGB colour and the ratio between two, and the check
 * an organisation's accent colour must pass in every place renderer/src/styles.css uses it.
 * https://www.w3.org/TR/WCAG21/#dfn-relative-luminance
 */

/** WCAG AA for normal text (1.4.3). Held for every pair, borders and fills too, so one number rules. */
export const AA_RATIO = 4.5

const hexColour = /^#[0-9a-f]{6}$/i

export function isHexColour(value: string): boolean {
  return hexColour.test(value)
}

/** Relative luminance, 0 (black) to 1 (white), of a #rrggbb colour. */
export function relativeLuminance(hex: string): number {
  if (!isHexColour(hex)) throw new TypeError(`not a #rrggbb colour: ${hex.slice(0, 16)}`)
  const channel = (offset: number) => {
    const c = parseInt(hex.slice(offset, offset + 2), 16) / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
}

/** The contrast ratio of two colours, 1 to 21, whichever is lighter. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number]
  return (light + 0.05) / (dark + 0.05)
}

/**
 * Every way the stylesheet uses var(--accent), with the colour it meets there. `selectors` are the
 * rules in styles.css that use it (a unit test keeps this list and the stylesheet in step).
 */
export const accentPairs = [
  { label: 'white text on accent buttons and tiles', other: '#ffffff', selectors: ['.tile', '.btn-primary'] },
  { label: 'the accent on the page background', other: '#f4f6f8', selectors: [] },
  { label: 'the accent on light-blue panels', other: '#e8f1fb', selectors: ['.notice-info', '.match-slot.drag-over'] },
  { label: 'the accent on grey gauge tracks', other: '#e3e8ee', selectors: ['.gauge-fill'] },
] as const

export interface AccentFailure {
  label: string
  ratio: number
}

/** The pairs a colour fails, with their ratios (empty: it passes everywhere). */
export function accentFailures(accent: string): AccentFailure[] {
  return accentPairs.map((pair) => ({ label: pair.label, ratio: contrastRatio(accent, pair.other) })).filter((pair) => pair.ratio < AA_RATIO)
}

/** A ratio as people read it: rounded down, so 4.49 never shows as a passing 4.5. */
export function formatRatio(ratio: number): string {
  return `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1`
}

/** Why an accent is refused, naming the weakest pair and its ratio; null when it passes. */
export function accentRefusal(accent: string): string | null {
  const failures = accentFailures(accent).sort((a, b) => a.ratio - b.ratio)
  const worst = failures[0]
  if (!worst) return null
  const more = failures.length > 1 ? ` (and ${failures.length - 1} more place${failures.length > 2 ? 's' : ''})` : ''
  return `has too little contrast for ${worst.label}: ${formatRatio(worst.ratio)}, WCAG AA needs ${AA_RATIO}:1${more}`
}
