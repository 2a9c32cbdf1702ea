import type { HostName } from '@shared/visits'
import { kiosk } from '../../bridge/kiosk'
import { useLoad } from '../staff/hooks'

/** The hosts a visitor may pick (names only); an empty list when they cannot be read, so the visit goes on without one. */
export function useHostNames(): HostName[] {
  return useLoad(() => kiosk.listHostNames({})).data ?? []
}
