import { createRequire } from 'node:module'

/**
 * Refuses an SVG that could load or run anything before it is rasterised (./logo-image.ts): the
 * file is parsed as XML by a maintained parser (@xmldom/xmldom) and every element and attribute is
 * held to an allow-list modelled on DOMPurify's SVG profiles. Nothing is repaired: an SVG that
 * fails is refused with the reason, and the administrator exports a plainer one or a PNG.
 * The SVG itself is never shown: only the PNG made from it reaches a page.
 */

/** The little of xmldom's DOM read here (its own typings would bring the browser's DOM types into the Node program). */
interface XmlNode {
  nodeType: number
  nodeName: string
  localName?: string | null
  namespaceURI?: string | null
  firstChild: XmlNode | null
  nextSibling: XmlNode | null
  textContent?: string | null
  /** A processing instruction's target. */
  target?: string
  attributes?: { length: number; item(index: number): { name: string; localName?: string | null; value: string } | null }
}
type ErrorHandler = { warning(message: string): void; error(message: string): void; fatalError(message: string): void }
type XmlParser = new (options: { locator: object; errorHandler: ErrorHandler }) => { parseFromString(text: string, mime: string): XmlNode & { documentElement: XmlNode | null } }
const { DOMParser } = createRequire(import.meta.url)('@xmldom/xmldom') as { DOMParser: XmlParser }

const SVG_NS = 'http://www.w3.org/2000/svg'
/** Editors' bookkeeping (Inkscape, Sodipodi, RDF metadata): ignored by renderers, allowed as elements and attributes. */
const EDITOR_NS = new Set([
  'http://www.inkscape.org/namespaces/inkscape',
  'http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd',
  'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  'http://purl.org/dc/elements/1.1/',
  'http://creativecommons.org/ns#',
  'http://web.resource.org/cc/',
])

/**
 * Static drawing only: no script, foreignObject, image, feImage, animation, a, iframe or font
 * loading. `use` stays (logos reuse shapes), its reference held to the same document below.
 */
const ALLOWED_ELEMENTS = new Set(
  [
    'svg', 'g', 'defs', 'symbol', 'use', 'title', 'desc', 'metadata', 'style', 'switch', 'view',
    'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'text', 'tspan', 'textPath',
    'linearGradient', 'radialGradient', 'stop', 'pattern', 'clipPath', 'mask', 'marker', 'filter',
    'feBlend', 'feColorMatrix', 'feComponentTransfer', 'feComposite', 'feConvolveMatrix', 'feDiffuseLighting',
    'feDisplacementMap', 'feDistantLight', 'feDropShadow', 'feFlood', 'feFuncA', 'feFuncB', 'feFuncG', 'feFuncR',
    'feGaussianBlur', 'feMerge', 'feMergeNode', 'feMorphology', 'feOffset', 'fePointLight',
    'feSpecularLighting', 'feSpotLight', 'feTile', 'feTurbulence',
  ].map((name) => name.toLowerCase()),
)

/** A url(...) in an attribute or style sheet; only same-document ones, url(#id), are drawable here. */
const cssUrl = /url\s*\(\s*(['"]?)\s*([^'")\s]*)/gi
const onlyFragment = /^#[^\s]*$/

export class UnsafeSvg extends Error {}

/** Returns when `text` is a well-formed SVG with nothing external or active in it; throws UnsafeSvg with the reason. */
export function checkSvg(text: string): void {
  // Checked on the text too: a parser that skipped a declaration must not let it through.
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new UnsafeSvg('it declares a DOCTYPE or entities')
  // Checked as UTF-8, so it must be drawn as UTF-8: in another declared encoding (UTF-7, say) the same bytes could spell markup this check never saw.
  const encoding = /^\uFEFF?\s*<\?xml\s[^>]*?encoding\s*=\s*["']([^"']*)["']/i.exec(text)?.[1]
  if (encoding !== undefined && !/^utf-?8$/i.test(encoding)) throw new UnsafeSvg(`it declares the encoding ${encoding.slice(0, 20)}; only UTF-8 is accepted`)
  const problems: string[] = []
  const parser = new DOMParser({
    locator: {},
    errorHandler: {
      warning: (message: string) => problems.push(message),
      error: (message: string) => problems.push(message),
      fatalError: (message: string) => problems.push(message),
    },
  })
  let doc: ReturnType<InstanceType<XmlParser>['parseFromString']>
  try {
    doc = parser.parseFromString(text, 'image/svg+xml')
  } catch {
    throw new UnsafeSvg('it is not well-formed XML')
  }
  if (problems.length > 0) throw new UnsafeSvg('it is not well-formed XML')
  const root = doc.documentElement
  if (!root || root.namespaceURI !== SVG_NS || root.localName !== 'svg') throw new UnsafeSvg('its root is not an <svg> element in the SVG namespace')
  for (let node = doc.firstChild; node; node = node.nextSibling) checkNode(node)
}

function checkNode(node: XmlNode): void {
  switch (node.nodeType) {
    case 1: // element
      checkElement(node)
      break
    case 7: // processing instruction: <?xml-stylesheet?> would load a style sheet
      if ((node.target ?? '').toLowerCase() !== 'xml') throw new UnsafeSvg(`it has a <?${node.target ?? ''}?> instruction`)
      return
    case 10: // document type
      throw new UnsafeSvg('it declares a DOCTYPE or entities')
    case 5:
    case 6: // entity reference or declaration
      throw new UnsafeSvg('it declares a DOCTYPE or entities')
    default:
      return
  }
  for (let child = node.firstChild; child; child = child.nextSibling) checkNode(child)
}

function checkElement(element: XmlNode): void {
  const name = element.localName ?? element.nodeName
  const ns = element.namespaceURI
  if (ns === SVG_NS) {
    if (!ALLOWED_ELEMENTS.has(name.toLowerCase())) throw new UnsafeSvg(`it has a <${name}> element, which the kiosk does not allow in a logo`)
  } else if (!(ns && EDITOR_NS.has(ns))) {
    throw new UnsafeSvg(`it has a <${element.nodeName}> element from outside SVG`)
  }
  const attributes = element.attributes ?? { length: 0, item: () => null }
  for (let i = 0; i < attributes.length; i++) {
    const attribute = attributes.item(i)!
    const attrName = (attribute.localName ?? attribute.name).toLowerCase()
    if (attrName.startsWith('on')) throw new UnsafeSvg(`it has an event handler (${attribute.name})`)
    if (attrName === 'href' || attrName === 'src') {
      if (!onlyFragment.test(attribute.value.trim())) throw new UnsafeSvg(`it refers to something outside the file (${attribute.name})`)
    }
    checkUrls(attribute.value, attribute.name)
  }
  if (name.toLowerCase() === 'style' && ns === SVG_NS) {
    const sheet = element.textContent ?? ''
    if (/@import/i.test(sheet)) throw new UnsafeSvg('its style sheet imports another')
    checkUrls(sheet, '<style>')
  }
}

function checkUrls(value: string, where: string): void {
  for (const match of value.matchAll(cssUrl)) {
    if (!onlyFragment.test(match[2] ?? '')) throw new UnsafeSvg(`it refers to something outside the file (url() in ${where})`)
  }
  // CSS escapes could spell url( or a scheme past the check above.
  if (/\\[0-9a-f]/i.test(value) && /url|\(/i.test(value)) throw new UnsafeSvg(`it has escaped characters in ${where}`)
}
