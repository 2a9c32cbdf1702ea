import { expect } from 'vitest'
import { KioskError } from '../../electron/shared/errors'

/** The rejection of a call, as a KioskError (fails the test if it resolved or threw something else). */
export async function rejection(call: Promise<unknown>): Promise<KioskError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(KioskError)
  return error as KioskError
}
