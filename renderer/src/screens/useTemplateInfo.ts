import { useEffect, useState } from 'react'
import type { TemplateTypeInfo } from '../../../electron/shared/api-models'
import { kiosk } from '../bridge/kiosk'
import { useLive } from '../store/live'

/** The configured template type's info (threshold, samples per enrollment), once known. */
export function useTemplateInfo(): TemplateTypeInfo | null {
  const templateType = useLive((s) => s.settings?.templateType)
  const [info, setInfo] = useState<TemplateTypeInfo | null>(null)
  useEffect(() => {
    if (!templateType) return
    let live = true
    kiosk.getTemplateTypes({}).then(
      (types) => live && setInfo(types.find((t) => t.templateType === templateType) ?? null),
      () => live && setInfo(null),
    )
    return () => {
      live = false
    }
  }, [templateType])
  return info
}
