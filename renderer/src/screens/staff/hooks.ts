import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown }

/** A ref that is true while the component is mounted (StrictMode-safe). */
function useMounted() {
  const mounted = useRef(false)
  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
    }
  }, [])
  return mounted
}

/**
 * One kind of action (a save, a delete): whether it is running (and for which item, when a list
 * has one button per row), and its last error for an ErrorNotice. `run` never throws; it answers
 * with the outcome.
 */
export function useAction() {
  const [busyKey, setBusyKey] = useState<string | null>(null)
  const [error, setError] = useState<unknown>(null)
  const mounted = useMounted()
  const run = useCallback(
    async <T,>(work: () => Promise<T>, key = 'action'): Promise<Outcome<T>> => {
      setBusyKey(key)
      setError(null)
      try {
        const value = await work()
        return { ok: true, value }
      } catch (caught) {
        if (mounted.current) setError(caught)
        return { ok: false, error: caught }
      } finally {
        if (mounted.current) setBusyKey(null)
      }
    },
    [mounted],
  )
  const clear = useCallback(() => setError(null), [])
  return { busy: busyKey !== null, busyKey, error, run, clear, setError }
}

/**
 * Data loaded when the component mounts (and whenever `key` changes), with reload. Only the latest
 * request's answer is kept, so a slow old answer never replaces a newer one.
 */
export function useLoad<T>(load: () => Promise<T>, key: unknown = null) {
  const [data, setData] = useState<T | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [loading, setLoading] = useState(true)
  const loader = useRef(load)
  useLayoutEffect(() => {
    loader.current = load
  })
  const sequence = useRef(0)
  const mounted = useMounted()

  const reload = useCallback(async (): Promise<T | null> => {
    const mine = ++sequence.current
    setLoading(true)
    try {
      const value = await loader.current()
      if (mounted.current && mine === sequence.current) {
        setData(value)
        setError(null)
      }
      return value
    } catch (caught) {
      if (mounted.current && mine === sequence.current) setError(caught)
      return null
    } finally {
      if (mounted.current && mine === sequence.current) setLoading(false)
    }
  }, [mounted])

  useEffect(() => {
    void reload()
  }, [reload, key])

  return { data, error, loading, reload, setData }
}
