import type { FrontDesk } from '../records/frontdesk/front-desk'
import type { Biometrics } from './bio/biometrics'
import type { TokenService } from './auth/tokens'
import type { EngineLog } from './logs/engine-log'
import type { Store } from './store/store'

/** Everything the engine's routes share. */
export interface EngineContext {
  store: Store
  tokens: TokenService
  bio: Biometrics
  /** The site's front desk over the engine's database (its routes: routes/frontdesk.ts). */
  frontDesk: FrontDesk
  log: EngineLog
  /** Whether this process has caught up with the database and may be sent requests (GET /health/ready). */
  ready(): boolean
}
