import type { FrontDesk } from '../records/frontdesk/front-desk'
import type { Biometrics } from './bio/biometrics'
import type { TokenService } from './auth/tokens'
import type { EngineLog } from './logs/engine-log'
import type { Store } from './store/store'

export type Readiness = 'ready' | 'stale' | 'catching-up'

/** Everything the engine's routes share. */
export interface EngineContext {
  store: Store
  tokens: TokenService
  bio: Biometrics
  /** The site's front desk over the engine's database (its routes: routes/frontdesk.ts). */
  frontDesk: FrontDesk
  log: EngineLog
  /**
   * Whether this process may be sent requests (GET /health/ready): `ready` (caught up with the
   * database, listening for changes), `stale` (the database away for a moment: reads from its
   * caches go on, writes are refused 503) or `catching-up` (not to be sent requests).
   */
  readiness(): Readiness
}
