import { useEffect, useState } from 'react'
import type { TemplateTypeInfo } from '../../../electron/shared/api-models'
import { defaultSettings } from '../../../electron/shared/settings'
import { kiosk } from '../bridge/kiosk'
import { useLive } from '../store/live'

/**
 * The configured template type's info (threshold, samples per enrollment), once known. Staff know
 * the configured type from the settings; a visitor may not read them, so the visitor's screens
 * take the only type the BioEngine has, or else the default one.
 */
export function useTemplateInfo(): TemplateTypeInfo | null {
  const configured = useLive((s) => s.settings?.templateType)
  const [info, setInfo] = useState<TemplateTypeInfo | null>(null)
  useEffect(() => {
    let live = true
    kiosk.getTemplateTypes({}).then(
      (types) => {
        if (!live) return
        const wanted = configured ?? (types.length === 1 ? types[0]!.templateType : defaultSettings.templateType)
        setInfo(types.find((t) => t.templateType === wanted) ?? null)
      },
      () => live && setInfo(null),
    )
    return () => {
      live = false
    }
  }, [configured])
  return info
}
