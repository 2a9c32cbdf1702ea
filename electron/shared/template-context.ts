/** The template context of a kiosk enrollment (its outbox item's id): stable for the item's whole life, unique per capture. */
export function templateContextFor(id: string): string {
  return `${KIOSK_PREFIX}${id}`
}

const KIOSK_PREFIX = 'outbox-'
/** The context of the copies a kiosk keeps for deciding offline (services/replica). */
export const REPLICA_CONTEXT = 'offline-replica'

/**
 * A template context as staff read it: a kiosk's own enrollment in words with a short reference
 * (the full context stays in the row's delete button's name), another system's context as it is.
 */
export function templateContextWords(context: string): { words: string; reference: string | null } {
  if (context.startsWith(KIOSK_PREFIX)) return { words: 'Enrolled at a kiosk', reference: context.slice(KIOSK_PREFIX.length, KIOSK_PREFIX.length + 8) }
  if (context === REPLICA_CONTEXT) return { words: 'Offline copy on this kiosk', reference: null }
  return { words: context, reference: null }
}
