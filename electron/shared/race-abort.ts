/** Settles with `work`, or rejects as soon as `signal` aborts (a deliver/probe that ignores its signal cannot hold us). */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  // A late rejection of abandoned work must not become an unhandled rejection.
  work.catch(() => {})
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}
