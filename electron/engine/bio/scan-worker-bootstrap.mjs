// Starts the TypeScript identify scan worker from source (see face/worker-bootstrap.mjs for why).
import { register } from 'tsx/esm/api'

register()
await import('./scan-worker.ts')
