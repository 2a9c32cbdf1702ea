/** At most `maxRunning` pieces of work at once, and at most `maxWaiting` in line for a turn. */
export interface WorkLimit {
  /** Runs `work` when a turn is free, waiting in line if need be; null (and nothing run) when the line is full. */
  run<T>(work: () => Promise<T>): Promise<T> | null
  readonly running: number
  readonly waiting: number
}

export function createWorkLimit(maxRunning: number, maxWaiting: number): WorkLimit {
  let running = 0
  const line: Array<() => void> = []

  const finish = () => {
    const next = line.shift()
    if (next) next()
    else running--
  }

  return {
    run(work) {
      let turn: Promise<void>
      if (running < maxRunning) {
        running++
        turn = Promise.resolve()
      } else if (line.length < maxWaiting) {
        // The finishing work hands its turn over: `running` stays as it is.
        turn = new Promise<void>((resolve) => line.push(resolve))
      } else {
        return null
      }
      return turn.then(work).finally(finish)
    },
    get running() {
      return running
    },
    get waiting() {
      return line.length
    },
  }
}
