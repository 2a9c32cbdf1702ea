import type { OnSiteCopy } from '@shared/visits'
import { formatDateTime } from '../staff/format'

/** What an evacuation list read from the kiosk's copy may miss, in the words staff and the fire marshal read. */
export function copyWords(offline: OnSiteCopy): string {
  const asOf = offline.asOf === null ? 'The site could not be reached and this kiosk has no copy of its list yet: this list is empty because the kiosk does not know, not because nobody is on site.' : `The site could not be reached: this list is this kiosk's copy of it as of ${formatDateTime(Date.parse(offline.asOf))}.`
  const kiosks = offline.unheardKiosks
  if (kiosks.length === 0) return asOf
  const names = kiosks.length === 1 ? kiosks[0] : `${kiosks.slice(0, -1).join(', ')} and ${kiosks[kiosks.length - 1]}`
  return `${asOf} Not heard from since: ${names}. Anyone who came or left through ${kiosks.length === 1 ? 'it' : 'them'} since then is not shown.`
}
