import { useEffect, useState } from 'react'
import type { HostName } from '@shared/visits'
import { kiosk } from '../../bridge/kiosk'

/** The hosts a visitor may pick (names only); an empty list when they cannot be read, so the visit goes on without one. */
export function useHostNames(): HostName[] {
  const [hosts, setHosts] = useState<HostName[]>([])
  useEffect(() => {
    let live = true
    kiosk
      .listHostNames({})
      .then((names) => live && setHosts(names))
      .catch(() => {})
    return () => {
      live = false
    }
  }, [])
  return hosts
}
