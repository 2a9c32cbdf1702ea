import { joinSiteInput } from '@shared/contract'
import { KioskError } from '@shared/errors'
import { PAIRING_CODE_LENGTH } from '@shared/frontdesk-api'
import { visitorError } from '@shared/visitor-errors'
import { describeError } from '../../components/ui'

/** Where to pair a kiosk from: said wherever a pairing code is asked for or made. */
export const PAIRING_SOURCES = 'an administrator makes one on the Kiosks screen of another kiosk of the site, or runs “npm run site -- pair” on the site’s server'

export interface JoinProblems {
  url?: string
  code?: string
  name?: string
}

/** The site's address, checked with the contract's own rule (http or https, a host, nothing secret). */
function addressProblem(value: string): string | null {
  if (value === '') return 'Enter the site’s address.'
  if (joinSiteInput.shape.url.safeParse(value).success) return null
  return 'Enter the site’s whole address, starting with http:// or https://, with no user name, “?” or “#” part, e.g. https://site.example.com.'
}

/** Checks the join form as the site will (the shared pairing-code and kiosk-name schemas), so most mistakes are named at once. */
export function checkJoin(url: string, code: string, name: string): JoinProblems {
  const problems: JoinProblems = {}
  const address = addressProblem(url)
  if (address) problems.url = address
  if (code.trim() === '') problems.code = 'Enter the pairing code.'
  else if (!joinSiteInput.shape.code.safeParse(code).success) {
    const letters = code.replace(/[\s-]/g, '')
    problems.code =
      letters.length !== PAIRING_CODE_LENGTH
        ? `A pairing code has ${PAIRING_CODE_LENGTH} letters and digits; this has ${letters.length}.`
        : 'A pairing code has no 0, O, 1, I or L, and only letters and digits: check what you typed.'
  }
  if (name.trim() !== '' && !joinSiteInput.shape.name.safeParse(name).success) problems.name = 'Use one line of at most 64 characters.'
  return problems
}

/** The pairing code as typed, cleaned as the site reads it (upper case, no spaces or dashes). */
export const cleanCode = (code: string): string => code.replace(/[\s-]/g, '').toUpperCase()

export interface JoinFailure {
  title: string
  /** The site's or the services' own words, when they say more than the title. */
  detail: string | null
  next: string
  /** The field to correct first. */
  field: keyof JoinProblems | null
}

const again = 'then press “Join the site” again.'

/**
 * A refused join in plain words, by its code. A first-run kiosk's caller is a visitor, whose errors
 * the services may reduce to general words: those add nothing here and are left out.
 */
export function joinFailure(error: unknown): JoinFailure {
  if (!(error instanceof KioskError)) return { title: 'The kiosk did not join the site', detail: null, next: describeError(error).next ?? `Try again: ${again}`, field: null }
  const own = error.code === 'TOO_MANY_ATTEMPTS' || visitorError({ code: error.code, message: '' }, 'joinSite').message !== error.message ? error.message : null
  switch (error.code) {
    case 'REJECTED':
      return {
        title: 'The site refused the pairing code',
        detail: own,
        next: `A code works once, for 15 minutes. Check it as typed; if it was used or has expired, get a new one (${PAIRING_SOURCES}), ${again}`,
        field: 'code',
      }
    case 'TOO_MANY_ATTEMPTS':
      return { title: 'Too many wrong pairing codes', detail: own, next: `Wait a moment, check the code, ${again}`, field: 'code' }
    case 'UNREACHABLE':
    case 'TIMEOUT':
      return { title: 'The site could not be reached', detail: own, next: `Check the address (as the site printed it at “site ready”) and this kiosk’s network, ${again}`, field: 'url' }
    case 'NOT_FOUND':
    case 'BAD_REPLY':
      return { title: 'That address does not answer as a site', detail: own, next: `Check the address: it is the site’s, as printed at “site ready”; ${again}`, field: 'url' }
    case 'SERVER_ERROR':
      return { title: 'The site had a problem', detail: own, next: `Wait a moment, ${again}`, field: null }
    case 'INVALID_INPUT':
      return { title: 'The site did not accept the form', detail: own, next: `Check each field, ${again}`, field: null }
    case 'FORBIDDEN':
      return { title: 'This kiosk cannot join a site from here', detail: own, next: 'It has an administrator already, or is on a site: an administrator joins from Settings.', field: null }
    default:
      return { title: 'The kiosk did not join the site', detail: own, next: describeError(error).next ?? `Try again: ${again}`, field: null }
  }
}
