/**
 * Kiosk mode and the shortcut that asks to leave it. Plain Node (no 'electron' import), unit-tested.
 *
 * KIOSK_MODE=1 comes from the environment, not from settings.json: the renderer can write settings
 * (saveSettings) and must never be able to switch kiosk mode off. Leaving it takes an
 * administrator's sign-in (staff-pin.ts, checked by the services' verifyAdmin), so there is no
 * separate exit PIN to configure, share or leak.
 */

export interface KioskConfig {
  kioskMode: boolean
}

export function readKioskConfig(env: Record<string, string | undefined>): KioskConfig {
  const mode = (env.KIOSK_MODE ?? '').trim().toLowerCase()
  return { kioskMode: ['1', 'true', 'yes', 'on'].includes(mode) }
}

/** The shortcut that opens the administrator prompt: Ctrl+Shift+Q (Cmd+Shift+Q on macOS). */
export function isExitShortcut(input: { type: string; key: string; control: boolean; meta: boolean; shift: boolean; alt: boolean }): boolean {
  return input.type === 'keyDown' && input.key.toLowerCase() === 'q' && input.shift && !input.alt && (input.control || input.meta)
}
