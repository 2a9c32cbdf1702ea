import { z } from 'zod'

/**
 * Who may do what at the kiosk. Everyone at the screen is a visitor until staff sign in; an
 * administrator may do everything an operator may. Each contract method names the least role it
 * needs, and the services refuse a call whose session lacks it (electron/services/dispatch.ts).
 */
export const roles = ['visitor', 'operator', 'admin'] as const
export type Role = (typeof roles)[number]
export const staffRoles = ['operator', 'admin'] as const
export type StaffRole = (typeof staffRoles)[number]

const rank: Record<Role, number> = { visitor: 0, operator: 1, admin: 2 }

/** True when a session of role `held` may call a method that needs `needed`. */
export function roleAllows(held: Role, needed: Role): boolean {
  return rank[held] >= rank[needed]
}

/** Account names: what staff type to sign in; shown in the audit trail. NFC, so a decomposed "É" is the same letter. */
export const accountName = z
  .string()
  .trim()
  .normalize('NFC')
  .regex(/^[\p{L}\p{N}._ -]{2,64}$/u, 'use 2–64 letters, digits, spaces, dots, dashes or underscores')
/** A PIN or password: at least 6 characters (a 6-digit PIN is the shortest accepted). */
/** How account names compare: NFC and case-folded, so "élise", "ÉLISE" and a decomposed "Élise" are one account. */
export function accountKey(name: string): string {
  return name.normalize('NFC').toLowerCase()
}
export const accountSecret = z.string().min(6, 'use at least 6 characters').max(128, 'use at most 128 characters')

export const signInInput = z.strictObject({ name: accountName, secret: z.string().min(1).max(128) })
export const createAccountInput = z.strictObject({ name: accountName, role: z.enum(staffRoles), secret: accountSecret })
export const firstAdminInput = z.strictObject({ name: accountName, secret: accountSecret })
export const setAccountDisabledInput = z.strictObject({ name: accountName, disabled: z.boolean() })

/** What the renderer knows of its own session: a role and a name, never a credential. */
export const sessionViewSchema = z.object({
  role: z.enum(roles),
  account: z.string().nullable(),
  /** No account exists yet: the first launch asks for the first administrator. */
  firstRun: z.boolean(),
  /** The kiosk's idle timeout: the screen resets (and a staff session ends) after it. */
  idleTimeoutSeconds: z.number().int(),
  /** The template type the kiosk enrolls and checks with (the capture screens read its sample count). */
  templateType: z.string(),
})
export type SessionView = z.infer<typeof sessionViewSchema>

export const accountViewSchema = z.object({
  name: z.string(),
  role: z.enum(staffRoles),
  disabled: z.boolean(),
  createdAt: z.number(),
  lastSignInAt: z.number().nullable(),
})
export type AccountView = z.infer<typeof accountViewSchema>
