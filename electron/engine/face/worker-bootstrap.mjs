// Starts the TypeScript face worker from source. A worker thread does not inherit the loader hooks
// that `tsx` (or vitest) installed in the thread that created it, so this plain-JS entry registers
// tsx for this thread first, then imports worker.ts. Used whenever the engine runs from its .ts files.
import { register } from 'tsx/esm/api'

register()
await import('./worker.ts')
