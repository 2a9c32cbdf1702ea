import { readFile } from 'node:fs/promises'
import { resolve, sep } from 'node:path'

/**
 * Human loads its models with the global fetch(), and Node's fetch refuses file:// URLs. So inside
 * a face worker we replace fetch with one that serves a fixed, never-resolvable origin (.invalid is
 * reserved by RFC 2606) from a local folder, and refuses everything else. A face worker therefore
 * cannot reach the network at all, even if a model config asked for a remote URL.
 */
export const MODEL_ORIGIN = 'https://models.invalid/'

export function installLocalModelFetch(folder: string): string {
  const root = resolve(folder)
  const base = `${MODEL_ORIGIN}local/`
  const localFetch = async (input: string | URL | Request): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    if (!url.startsWith(base)) throw new TypeError(`face worker: network access refused (${url})`)
    const file = resolve(root, decodeURIComponent(new URL(url).pathname.slice('/local/'.length)))
    if (!file.startsWith(root + sep)) throw new TypeError(`face worker: path outside the model folder refused (${url})`)
    const body = await readFile(file)
    const type = file.endsWith('.json') ? 'application/json' : 'application/octet-stream'
    return new Response(body, { status: 200, headers: { 'content-type': type } })
  }
  globalThis.fetch = localFetch as typeof fetch
  return base
}
