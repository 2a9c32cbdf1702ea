import { expect, it } from 'vitest'
import { copyWords } from '../../renderer/src/screens/visits/copy-words'

// An evacuation list read from a site kiosk's copy says what it may miss: as of when, and through which kiosks.
it('names the time of the copy and every kiosk not heard from since', () => {
  const asOf = '2026-11-29T09:15:00.000Z'
  const words = copyWords({ asOf, unheardKiosks: ['Side door', 'Garage', 'Loading bay'] })
  expect(words).toContain("this kiosk's copy of it as of ")
  expect(words).toContain(new Date(Date.parse(asOf)).getFullYear().toString())
  expect(words).toContain('Not heard from since: Side door, Garage and Loading bay. Anyone who came or left through them since then is not shown.')
  expect(copyWords({ asOf, unheardKiosks: ['Side door'] })).toContain('Not heard from since: Side door. Anyone who came or left through it since then')
})

it('says when there is no copy at all, and names no kiosk when the site has no other', () => {
  const words = copyWords({ asOf: null, unheardKiosks: [] })
  expect(words).toBe('The site could not be reached and this kiosk has no copy of its list yet: this list is empty because the kiosk does not know, not because nobody is on site.')
})
