import { KioskError } from '../../shared/errors'
import type { LivenessOverride } from '../../shared/liveness'
import type { Role } from '../../shared/staff'

/** Only staff may let a capture go on without liveness (a person who cannot do the challenge); a visitor asking is refused. */
export function allowedOverride(override: LivenessOverride | undefined, role: Role): LivenessOverride | null {
  if (!override) return null
  if (role === 'visitor') throw new KioskError('FORBIDDEN', 'Only staff can let a capture go on without the liveness check.')
  return override
}
