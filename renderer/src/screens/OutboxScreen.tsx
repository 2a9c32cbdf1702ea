import { useEffect, useState } from 'react'
import type { OutboxItem, OutboxItemState, OutboxRetryResult, OutboxState } from '@shared/outbox'
import { usesRemoteServers } from '@shared/settings'
import { kiosk } from '../bridge/kiosk'
import { JobCountSummary, JobList, jobStateWord } from '../components/JobList'
import { Busy, ErrorNotice, Notice, LoadError } from '../components/ui'
import { readinessOf, useLive } from '../store/live'
import { ConfirmDialog } from './staff/controls'
import { plural } from './staff/format'
import { useAction, useLoad } from './staff/hooks'
import { HostNoticesSection } from './staff/HostNoticesSection'
import { ReplicaSection } from './staff/ReplicaSection'
import { ScreenFrame } from './ScreenFrame'
import './staff/staff.css'

/** What each state means for an enrollment (the states' words are the queue's, shared with the host notices). */
const stateMeanings: Record<OutboxItemState, string> = {
  queued: 'Will be sent automatically at its next attempt; nothing to do.',
  'in-flight': 'Being sent to the server right now.',
  'needs-attention': 'The server refused it and it will not be tried again on its own. Read the last error, fix the cause, then choose Retry now, or Discard it.',
  delivered: 'Reached the server. Kept here for a day as a record, without the photos.',
}

/** What an operator's "Retry now" really did: the kiosk probed and tried at once, and says how it went. */
export function retryOutcome({ item, online }: OutboxRetryResult): Message {
  const whose = `The enrollment of ${item.userId}`
  if (item.state === 'delivered') return { kind: 'success', text: `${whose} was sent.` }
  if (online === false) return { kind: 'warning', text: `The servers can't be reached (checked just now). ${whose} stays here and is sent automatically when they can be.` }
  if (item.state === 'in-flight') return { kind: 'success', text: `${whose} is being sent now.` }
  const why = item.lastError ? ` The server said: ${item.lastError.message}` : ''
  if (item.state === 'needs-attention') return { kind: 'warning', text: `${whose} was tried again and refused.${why}` }
  return { kind: 'warning', text: `${whose} was tried again and did not go through; it will be tried again on its own.${why}` }
}

type Message = { kind: 'success' | 'warning'; text: string }

/** Enrollments taken while the servers could not be reached, as they wait, go out, or need a person. */
export function OutboxScreen() {
  const live = useLive((s) => s.outbox)
  const engineStarting = ['unknown', 'starting'].includes(readinessOf(useLive((s) => s.engine)))
  const initial = useLoad(() => kiosk.getOutbox({}))
  const [state, setState] = useState<OutboxState | null>(live)
  const action = useAction()
  const [discarding, setDiscarding] = useState<OutboxItem | null>(null)
  const [message, setMessage] = useState<Message | null>(null)

  // Whichever answer is newest wins: the first load, a pushed event, or the refresh after an action.
  useEffect(() => {
    if (initial.data) setState(initial.data)
  }, [initial.data])
  useEffect(() => {
    if (live) setState(live)
  }, [live])

  const refresh = async () => {
    const fresh = await kiosk.getOutbox({})
    setState(fresh)
    useLive.setState({ outbox: fresh })
  }

  const retry = async (item: OutboxItem) => {
    setMessage(null)
    const outcome = await action.run(async () => {
      const result = await kiosk.retryOutboxItem({ id: item.id })
      await refresh()
      return result
    }, `retry:${item.id}`)
    if (outcome.ok) setMessage(retryOutcome(outcome.value))
  }

  const discard = async (item: OutboxItem) => {
    setMessage(null)
    const outcome = await action.run(async () => {
      await kiosk.discardOutboxItem({ id: item.id })
      await refresh()
    }, `discard:${item.id}`)
    if (outcome.ok) {
      setDiscarding(null)
      setMessage({ kind: 'success', text: `The enrollment of ${item.userId} was discarded. Enroll them again if they still need it.` })
      requestAnimationFrame(() => document.getElementById('outbox-items-title')?.focus())
    }
  }

  const counts = state?.counts
  const remote = useLive((s) => (s.settings ? usesRemoteServers(s.settings.mode) : false))
  return (
    <ScreenFrame staff title="Outbox" purpose="Enrollments taken while the servers could not be reached wait here and are sent automatically once they can be.">

      {!state && initial.loading ? <Busy label="Loading the outbox…" /> : null}
      {!state && initial.error ? (
        <LoadError error={initial.error} title="The outbox could not be loaded" onRetry={() => void initial.reload()} />
      ) : null}

      {state && counts ? (
        <>
          <section className="staff-section" aria-labelledby="outbox-status-title">
            <h2 id="outbox-status-title">Status</h2>
            <p data-testid="outbox-connection" className={state.online === false ? 'staff-warn' : undefined}>
              {state.online === null
                ? 'Connection: not checked yet.'
                : state.online
                  ? 'Online: the servers can be reached.'
                  : 'Offline: the servers cannot be reached. New enrollments wait here and are sent once they can be.'}
            </p>
            {!state.running ? (
              engineStarting ? (
                <Notice kind="info" title="The outbox starts sending once the kiosk is ready.">The kiosk’s engine is starting. Nothing waiting is lost.</Notice>
              ) : (
                <Notice kind="warning" title="The outbox is not sending.">Its sender is stopped; restart the kiosk. Nothing waiting is lost.</Notice>
              )
            ) : null}
            <JobCountSummary counts={counts} deliveredWindow="day" testId="outbox-counts" />
          </section>

          {remote ? <ReplicaSection /> : null}

          <section className="staff-section" aria-labelledby="outbox-items-title">
            <h2 id="outbox-items-title" tabIndex={-1}>
              Enrollments
            </h2>
            {action.error && !discarding ? <ErrorNotice error={action.error} title="That did not work" /> : null}
            {message ? (
              <Notice kind={message.kind}>
                <span data-testid="outbox-message">{message.text}</span>
              </Notice>
            ) : null}
            <JobList
              caption="Enrollments in the outbox"
              testId="outbox-items"
              jobs={state.items}
              columns={[
                { header: 'Visitor', rowHeader: true, cell: (item) => item.userId },
                { header: 'Template type', cell: (item) => item.templateType },
                { header: 'Photos', cell: (item) => item.sampleCount },
              ]}
              createdHeader="Taken"
              empty={
                <Notice kind="info" title="The outbox is empty.">
                  Every enrollment has reached the server. When the servers cannot be reached, enrollments wait here and are sent automatically once they
                  can be.
                </Notice>
              }
              truncated={state.truncated}
              truncatedWhat="enrollments"
              retry={{ label: (item) => `Retry the enrollment of ${item.userId} now`, run: (item) => void retry(item) }}
              discard={{
                label: (item) => `Discard the enrollment of ${item.userId}`,
                run: (item) => {
                  action.clear()
                  setDiscarding(item)
                },
              }}
              busy={action.busy}
              busyKey={action.busyKey}
            />
          </section>

          <section className="staff-section" aria-labelledby="outbox-states-title">
            <h2 id="outbox-states-title">What the states mean</h2>
            <dl className="staff-facts staff-glossary">
              {(Object.keys(stateMeanings) as OutboxItemState[]).map((key) => (
                <div key={key}>
                  <dt>{jobStateWord(key)}</dt>
                  <dd>{stateMeanings[key]}</dd>
                </div>
              ))}
            </dl>
          </section>
        </>
      ) : null}

      <HostNoticesSection />

      {discarding ? (
        <ConfirmDialog
          title={`Discard the enrollment of ${discarding.userId}?`}
          confirmLabel="Discard enrollment"
          busy={action.busy}
          error={action.error}
          onCancel={() => setDiscarding(null)}
          onConfirm={() => void discard(discarding)}
        >
          <p>
            Its {plural(discarding.sampleCount, 'photo')} are deleted and it will never be sent. {discarding.userId} is not enrolled until someone enrolls
            them again.
          </p>
        </ConfirmDialog>
      ) : null}
    </ScreenFrame>
  )
}
