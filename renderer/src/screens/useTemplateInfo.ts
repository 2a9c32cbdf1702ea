import { useEffect, useState } from 'react'
import type { TemplateTypeInfo } from '@shared/api-models'
import { kiosk } from '../bridge/kiosk'
import { useSession } from '../store/session'

/** The configured template type's info (threshold, samples per enrollment), once known; the session names the type. */
export function useTemplateInfo(): TemplateTypeInfo | null {
  const configured = useSession((s) => s.templateType)
  const [info, setInfo] = useState<TemplateTypeInfo | null>(null)
  useEffect(() => {
    if (!configured) return
    let live = true
    kiosk.getTemplateTypes({}).then(
      (types) => live && setInfo(types.find((t) => t.templateType === configured) ?? null),
      () => live && setInfo(null),
    )
    return () => {
      live = false
    }
  }, [configured])
  return info
}
