import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { projectRoot } from '../support/process'

// The renderer's modules form no import cycle (type-only imports included: a cycle of types still
// ties two modules into one). GuidedCapture and CaptureThumbnails once imported each other.
const root = join(projectRoot, 'renderer/src')

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sources(path)
    return /\.(ts|tsx)$/.test(name) ? [path] : []
  })
}

function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null
  const base = resolve(dirname(from), spec)
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile() && candidate.startsWith(root)) return candidate
  }
  return null
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g), ...text.matchAll(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)].map((m) => m[1]!)
  return specs.map((spec) => resolveImport(file, spec)).filter((path): path is string => path !== null)
}

/** Every cycle found by a depth-first walk, each as a list of paths relative to renderer/src. */
function cycles(files: string[]): string[][] {
  const graph = new Map(files.map((file) => [file, importsOf(file)]))
  const found: string[][] = []
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (file: string) => {
    state.set(file, 'open')
    stack.push(file)
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push(stack.slice(stack.indexOf(next)).concat(next).map((p) => relative(root, p)))
      else if (!state.has(next)) visit(next)
    }
    stack.pop()
    state.set(file, 'done')
  }
  for (const file of files) if (!state.has(file)) visit(file)
  return found
}

describe('renderer imports', () => {
  it('reads a module’s relative imports', () => {
    const a = join(root, 'components/GuidedCapture.tsx')
    expect(importsOf(a).length).toBeGreaterThan(0)
  })

  it('have no cycle', () => {
    expect(cycles(sources(root))).toEqual([])
  })
})
