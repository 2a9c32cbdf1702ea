import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { settingsSchema } from '../../electron/shared/settings'
import { projectRoot } from '../support/process'

// The README and docs/ stay true to the repository: every relative link (text or image) lands on a
// file a fresh clone has, every #anchor on a heading of its page, and every setting the kiosk's
// schema knows is described in docs/configuration.md.

const root = resolve(projectRoot)
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)]

/** Files a fresh clone has: tracked or about to be (not ignored). Without git, whatever is on disk. */
const cloneFiles: Set<string> | null = (() => {
  try {
    const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 })
    return new Set(listed.split('\0').filter(Boolean))
  } catch {
    return null
  }
})()

function inClone(path: string): boolean {
  if (!existsSync(join(root, path))) return false
  if (!cloneFiles) return true
  if (cloneFiles.has(path)) return true
  const folder = `${path.replace(/\/+$/, '')}/`
  for (const file of cloneFiles) if (file.startsWith(folder)) return true
  return false
}

/** Markdown links and images outside code: [text](target), ![alt](target), <img src="target">. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '')
  const targets: string[] = []
  for (const match of prose.matchAll(/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(match[1]!)
  for (const match of prose.matchAll(/<img\b[^>]*\bsrc="([^"]+)"/g)) targets.push(match[1]!)
  return targets
}

/** GitHub's anchors for a page's headings. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const result = new Set<string>()
  for (const match of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = match[1]!
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    result.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return result
}

describe('README and docs/', () => {
  it('finds the pages and their links', () => {
    expect(pages).toContain('docs/configuration.md')
    expect(pages.length).toBeGreaterThan(5)
    expect(linkTargets('a [b](c.md) ![d](e.png) `[f](g)` [h [i]](j#k)')).toEqual(['c.md', 'e.png', 'j#k'])
    expect(anchors('# Kiosks on a site: one front desk\n## `npm run site`\n## A\n## A')).toEqual(
      new Set(['kiosks-on-a-site-one-front-desk', 'npm-run-site', 'a', 'a-1']),
    )
  })

  it.each(pages)('%s links only to files in the repository, and to headings that exist', (page) => {
    const text = readFileSync(join(root, page), 'utf8')
    const broken: string[] = []
    for (const target of linkTargets(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // https:, mailto:
      const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined]
      const file = pathPart === '' ? page : relative(root, resolve(root, dirname(page), decodeURIComponent(pathPart)))
      if (file.startsWith(`..${sep}`) || file === '..') {
        broken.push(`${target}: outside the repository`)
        continue
      }
      if (!inClone(file.split(sep).join('/'))) {
        broken.push(`${target}: no such file in the repository`)
        continue
      }
      if (anchor && file.endsWith('.md') && !anchors(readFileSync(join(root, file), 'utf8')).has(anchor)) {
        broken.push(`${target}: no heading #${anchor} in ${file}`)
      }
    }
    expect(broken).toEqual([])
  })

  it('describes every setting of the schema in docs/configuration.md', () => {
    const keys = Object.keys(settingsSchema.shape)
    expect(keys.length).toBeGreaterThan(20)
    const configuration = readFileSync(join(root, 'docs/configuration.md'), 'utf8')
    expect(keys.filter((key) => !configuration.includes(`\`${key}\``))).toEqual([])
  })

  it("keeps the README's two fresh-machine commands as CI runs them", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    expect(readme).toContain('bash scripts/setup.sh && npm start\n')
    expect(readme).toContain('bash scripts/setup.sh && npm test\n')
    expect(readFileSync(join(root, '.ci/run'), 'utf8')).toContain('bash scripts/setup.sh && npm test\n')
  })
})
