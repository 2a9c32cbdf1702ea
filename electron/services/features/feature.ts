import { methodNames, type MethodName } from '../../shared/contract'
import type { Handlers } from '../dispatch'

/**
 * One feature of the services: the contract methods it answers, and what it starts and stops
 * (its timers, files and processes). Features are combined in the composition root.
 */
export interface Feature {
  handlers: Partial<Handlers>
  start?(): Promise<void> | void
  stop?(): Promise<void> | void
}

/**
 * The features as one: their handler tables merged (a method answered twice is a wiring mistake,
 * refused), started in the order given and stopped in reverse, so a feature stops before those it
 * was started after.
 */
export function combine(...features: Feature[]): Required<Feature> {
  const handlers: Partial<Record<MethodName, unknown>> = {}
  for (const feature of features) {
    for (const method of Object.keys(feature.handlers) as MethodName[]) {
      if (Object.hasOwn(handlers, method)) throw new Error(`two features answer ${method}`)
      handlers[method] = feature.handlers[method]
    }
  }
  return {
    handlers: handlers as Partial<Handlers>,
    async start() {
      for (const feature of features) await feature.start?.()
    },
    async stop() {
      for (const feature of features.toReversed()) await feature.stop?.()
    },
  }
}

/** The complete handler table: a contract method no feature answers is a wiring mistake, refused at start-up. */
export function handlerTable(handlers: Partial<Handlers>): Handlers {
  const missing = methodNames.filter((method) => !Object.hasOwn(handlers, method))
  if (missing.length > 0) throw new Error(`no feature answers ${missing.join(', ')}`)
  return handlers as Handlers
}
