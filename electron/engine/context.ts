import type { Biometrics } from './bio/biometrics'
import type { TokenService } from './auth/tokens'
import type { EngineLog } from './logs/engine-log'
import type { ClientStore } from './store/clients'
import type { Db } from './store/database'
import type { FaceCropStore } from './store/face-crops'
import type { PersonStore } from './store/persons'
import type { TenantStore } from './store/tenants'

/** Everything the engine's routes share. */
export interface EngineContext {
  db: Db
  persons: PersonStore
  tenants: TenantStore
  crops: FaceCropStore
  clients: ClientStore
  tokens: TokenService
  bio: Biometrics
  log: EngineLog
}
