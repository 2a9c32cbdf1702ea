import type { Biometrics } from './bio/biometrics'
import type { TokenService } from './auth/tokens'
import type { EngineLog } from './logs/engine-log'
import type { Store } from './store/store'

/** Everything the engine's routes share. */
export interface EngineContext {
  store: Store
  tokens: TokenService
  bio: Biometrics
  log: EngineLog
  /** Whether this process has caught up with the database and may be sent requests (GET /health/ready). */
  ready(): boolean
}
