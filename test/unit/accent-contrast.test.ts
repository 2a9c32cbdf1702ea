import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { accentFailures, accentPairs, accentRefusal, contrastRatio, relativeLuminance } from '../../electron/shared/contrast'
import { defaultSettings } from '../../electron/shared/settings'
import { projectRoot } from '../support/process'

describe('WCAG contrast', () => {
  it('gives the relative luminance and ratios WCAG defines', () => {
    expect(relativeLuminance('#000000')).toBe(0)
    expect(relativeLuminance('#ffffff')).toBeCloseTo(1, 10)
    expect(contrastRatio('#000000', '#FFFFFF')).toBeCloseTo(21, 10)
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 10)
    // The usual boundary: #767676 is the lightest grey that passes AA on white, #777777 fails.
    expect(contrastRatio('#767676', '#ffffff')).toBeGreaterThanOrEqual(4.5)
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(4.5)
    expect(() => relativeLuminance('red')).toThrow(TypeError)
  })

  it('passes today’s accent everywhere it is used', () => {
    expect(accentFailures(defaultSettings.accentColour)).toEqual([])
    expect(accentRefusal(defaultSettings.accentColour)).toBeNull()
  })

  it('refuses a light accent, naming the weakest pair and its ratio', () => {
    expect(accentRefusal('#ffcc00')).toMatch(/^has too little contrast for the accent on grey gauge tracks: 1\.\d\d:1, WCAG AA needs 4\.5:1 \(and 3 more places\)$/)
    expect(accentFailures('#ffcc00').map((f) => f.label)).toContain('white text on accent buttons and tiles')
    // Dark enough for white text, yet not against the grey gauge track.
    expect(accentFailures('#6b6b6b').map((f) => f.label)).toEqual(['the accent on grey gauge tracks'])
    expect(accentRefusal('#6b6b6b')).toBe('has too little contrast for the accent on grey gauge tracks: 4.32:1, WCAG AA needs 4.5:1')
  })

  it('knows every rule in styles.css that uses the accent', () => {
    const css = readFileSync(join(projectRoot, 'renderer/src/styles.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '')
    const users = [...css.matchAll(/([^{}]+)\{([^{}]*)\}/g)].filter((rule) => rule[2]!.includes('var(--accent)')).flatMap((rule) => rule[1]!.split(',').map((s) => s.trim()))
    const known = new Set<string>(accentPairs.flatMap((pair) => pair.selectors))
    expect(users.length).toBeGreaterThan(0)
    expect(users.filter((selector) => !known.has(selector))).toEqual([])
  })
})
