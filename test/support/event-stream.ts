import type { Readable } from 'node:stream'
import type { SiteEvent } from '../../electron/shared/frontdesk-api'

/** What a site's event stream (text/event-stream) has sent so far: its events, and its comment lines (keep-alives). */
export interface StreamRead {
  events: SiteEvent[]
  comments: string[]
}

/** Reads a site's event stream as it arrives, message by message (each ends with a blank line), into `StreamRead`. */
export function readEventStream(body: Readable): StreamRead {
  const read: StreamRead = { events: [], comments: [] }
  let buffered = ''
  body.setEncoding('utf8')
  body.on('data', (chunk: string) => {
    buffered += chunk
    let end: number
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const message = buffered.slice(0, end)
      buffered = buffered.slice(end + 2)
      if (message.startsWith('data: ')) read.events.push(JSON.parse(message.slice(6)) as SiteEvent)
      else if (message.startsWith(':')) read.comments.push(message.slice(1).trim())
    }
  })
  return read
}
