/** Just enough multipart/form-data (RFC 7578) to read /match: the parts in order, by field name, or null when the body is not multipart. */
export function parseMultipart(contentType: string | undefined, body: Buffer): Array<{ name: string; data: Buffer }> | null {
  const boundary = /^multipart\/form-data\s*;.*\bboundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType ?? '')
  const marker = boundary?.[1] ?? boundary?.[2]
  if (!marker) return null
  const delimiter = Buffer.from(`--${marker}`)
  const parts: Array<{ name: string; data: Buffer }> = []
  let at = body.indexOf(delimiter)
  if (at < 0) return null
  for (;;) {
    at += delimiter.length
    if (body.subarray(at, at + 2).toString() === '--') return parts // closing delimiter
    const headersEnd = body.indexOf('\r\n\r\n', at)
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), at)
    if (headersEnd < 0 || next < 0 || headersEnd > next) return null
    const headers = body.subarray(at, headersEnd).toString('latin1')
    const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(headers)?.[1] ?? ''
    parts.push({ name, data: body.subarray(headersEnd + 4, next) })
    at = next + 2
  }
}
