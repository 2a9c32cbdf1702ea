import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createSettingsStore } from '../../electron/services/settings-store'
import { settingsPatchSchema } from '../../electron/shared/settings'
import { rejection } from '../support/rejection'

const dirs: string[] = []
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))
const store = () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-branding-'))
  dirs.push(dataDir)
  return createSettingsStore({ dataDir, log: () => {} })
}
const refusal = (patch: Record<string, unknown>) => {
  const parsed = settingsPatchSchema.safeParse(patch)
  return parsed.success ? null : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')
}

describe('the organisation’s settings', () => {
  it('keep today’s look by default and save a name, a welcome line and an accent', async () => {
    const s = store()
    expect(await s.load()).toMatchObject({ organisationName: 'Identity Kiosk', welcomeLine: '', accentColour: '#0b5cad' })
    const saved = await s.update({ organisationName: '  Städtische Bibliothek  ', welcomeLine: 'Willkommen! Bitte wählen Sie.', accentColour: '#1E5A2B' })
    // Trimmed, and the colour kept in one spelling.
    expect(saved).toMatchObject({ organisationName: 'Städtische Bibliothek', welcomeLine: 'Willkommen! Bitte wählen Sie.', accentColour: '#1e5a2b' })
    expect(await s.load()).toMatchObject(saved)
    expect((await s.update({ welcomeLine: '' })).welcomeLine).toBe('')
  })

  it('refuse an empty or long name, a long line, and control or direction-override characters', () => {
    expect(refusal({ organisationName: '   ' })).toBe('organisationName: must not be empty')
    expect(refusal({ organisationName: 'x'.repeat(61) })).toBe('organisationName: must be at most 60 characters')
    expect(refusal({ welcomeLine: 'y'.repeat(161) })).toBe('welcomeLine: must be at most 160 characters')
    expect(refusal({ welcomeLine: 'two\nlines' })).toBe('welcomeLine: must be one line without control characters')
    expect(refusal({ organisationName: 'Bank\u202eknaB' })).toBe('organisationName: must be one line without control characters')
    expect(refusal({ organisationName: 'A\u0000B' })).toMatch(/without control characters/)
  })

  it('refuse a colour that is not #rrggbb', () => {
    for (const colour of ['blue', '#abc', '#0b5cadff', 'rgb(0,0,0)', '#0b5cag', '']) {
      expect(refusal({ accentColour: colour })).toBe('accentColour: must be a colour written as #rrggbb, e.g. #0b5cad')
    }
  })

  it('refuse an accent without AA contrast, saying which pair fails and its ratio', async () => {
    const s = store()
    const error = await rejection(s.update({ accentColour: '#ffcc00' }))
    expect(error.code).toBe('INVALID_INPUT')
    expect(error.message).toMatch(/has too little contrast for the accent on grey gauge tracks: 1\.\d\d:1, WCAG AA needs 4\.5:1[\s\S]*→ at accentColour/)
    expect((await s.load()).accentColour).toBe('#0b5cad')
  })
})
