import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, isAbsolute, join, relative } from 'node:path'
import { projectRoot } from '../support/process'

/**
 * Runs @doyensec/electronegativity (the Electron security-checklist scanner) programmatically and
 * offline. Its own runner fetches translations and Electron's release list from the network at
 * every run, so this drives its loader, parser and checks directly instead, with the bundled
 * English strings and without the one check that needs the network (AVAILABLE_SECURITY_FIXES:
 * "is this Electron the latest?" — Electron is pinned on purpose and upgraded by hand).
 *
 * Inline suppression is electronegativity's own: a `/* eng-disable CHECK_ID *\/` comment on the line
 * of the finding. This project also requires a reason on that line (`// justified: …`), checked by
 * `suppressionComments` below.
 */

export type Severity = 'INFORMATIONAL' | 'LOW' | 'MEDIUM' | 'HIGH'

export interface Finding {
  id: string
  severity: Severity
  confidence: string
  /** Relative to the project root, or N/A for a global finding. */
  file: string
  line: number
  description: string
  manualReview: boolean
  /**
   * Why the scanner's own report would hide it: an inline eng-disable comment, or one of its global
   * checks deciding the atomic finding is settled (e.g. a permission handler exists). null: shown.
   */
  suppressed: 'inline' | 'global-check' | null
}

export interface ScanResult {
  findings: Finding[]
  /** Files the parser could not read: a file that is not parsed is not checked. */
  errors: { file: string; message: string; tolerable: boolean }[]
  filesScanned: number
  checks: number
  electronVersion: string
}

const NETWORK_CHECKS = ['availablesecurityfixesglobalcheck']

interface EngIssue {
  id: string
  file: string
  location: { line: number; column: number }
  description: string
  severity: { name: Severity }
  confidence: { name: string }
  manualReview?: boolean
  visibility?: { inlineDisabled?: boolean; globalCheckDisabled?: boolean }
}

type EngModules = {
  LoaderDirectory: new () => { load(dir: string): Promise<void>; list_files: Iterable<string>; load_buffer(file: string): Buffer }
  Parser: new (babelFirst: boolean, typescriptBabelFirst: boolean) => { parse(file: string, content: Buffer): [unknown, unknown, unknown, { message: string }[] | undefined] }
  Finder: new (customScan: string[], exclude: string[]) => { find(file: string, data: unknown, type: unknown, content: unknown, only: null, electronVersion: string): Promise<EngIssue[]>; _enabled_checks: unknown[] }
  GlobalChecks: new (customScan: string[], exclude: string[]) => { getResults(issues: EngIssue[]): Promise<EngIssue[]>; _enabled_checks: unknown[] }
}

function loadElectronegativity(): EngModules {
  const fromProject = createRequire(join(projectRoot, 'package.json'))
  const entry = fromProject.resolve('@doyensec/electronegativity')
  const fromTool = createRequire(entry)
  const i18n = fromTool('i18n') as { configure(options: object): void; setLocale(locale: string): void }
  // The checks read their messages through a global `__` that i18n registers.
  i18n.configure({ locales: ['en-US'], defaultLocale: 'en-US', directory: join(dirname(entry), 'locales'), updateFiles: false, objectNotation: true, register: globalThis })
  i18n.setLocale('en-US')
  const { LoaderDirectory } = fromTool('./loader')
  const { Parser } = fromTool('./parser')
  const { Finder, GlobalChecks } = fromTool('./finder')
  return { LoaderDirectory, Parser, Finder, GlobalChecks }
}

export function pinnedElectronVersion(): string {
  return JSON.parse(readFileSync(join(projectRoot, 'node_modules/electron/package.json'), 'utf8')).version as string
}

/** Scans folders (absolute, or relative to the project root) with every offline check. */
export async function scanWithElectronegativity(folders: string[], electronVersion = pinnedElectronVersion()): Promise<ScanResult> {
  const { LoaderDirectory, Parser, Finder, GlobalChecks } = loadElectronegativity()
  const finder = new Finder([], [])
  const globalChecks = new GlobalChecks([], NETWORK_CHECKS)
  // TypeScript is parsed with Babel first (it knows current syntax), typescript-estree second.
  const parser = new Parser(false, true)
  const issues: EngIssue[] = []
  const errors: ScanResult['errors'] = []
  let filesScanned = 0
  for (const folder of folders) {
    const loader = new LoaderDirectory()
    await loader.load(isAbsolute(folder) ? folder : join(projectRoot, folder))
    for (const file of loader.list_files) {
      try {
        const [type, data, content, warnings] = parser.parse(file, loader.load_buffer(file))
        if (data === null) continue
        filesScanned += 1
        for (const warning of warnings ?? []) errors.push({ file: relative(projectRoot, file), message: warning.message, tolerable: true })
        issues.push(...(await finder.find(file, data, type, content, null, electronVersion)))
      } catch (error) {
        errors.push({ file: relative(projectRoot, file), message: error instanceof Error ? error.message : String(error), tolerable: false })
      }
    }
  }
  const results = await globalChecks.getResults(issues)
  const findings = results.map(
    (issue): Finding => ({
      id: issue.id,
      severity: issue.severity.name,
      confidence: issue.confidence.name,
      file: issue.file === 'N/A' ? 'N/A' : relative(projectRoot, issue.file),
      line: issue.location.line,
      description: issue.description,
      manualReview: Boolean(issue.manualReview),
      suppressed: issue.visibility?.inlineDisabled ? 'inline' : issue.visibility?.globalCheckDisabled ? 'global-check' : null,
    }),
  )
  return { findings, errors, filesScanned, checks: finder._enabled_checks.length + globalChecks._enabled_checks.length, electronVersion }
}

export interface SuppressionComment {
  file: string
  line: number
  ids: string[]
  reason: string | null
  fileWide: boolean
}

/** The files electronegativity reads in these folders (sources and HTML; no node_modules), project-relative. */
export function scannedFiles(folders: string[]): string[] {
  const files: string[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path)
      } else if (/\.(js|jsx|ts|tsx|mjs|cjs|html|htm)$/.test(entry.name)) {
        files.push(relative(projectRoot, path))
      }
    }
  }
  for (const folder of folders) walk(isAbsolute(folder) ? folder : join(projectRoot, folder))
  return files
}

/** Every eng-disable comment in the given files, with the reason written beside it (if any). */
export function suppressionComments(files: string[]): SuppressionComment[] {
  const found: SuppressionComment[] = []
  for (const file of files) {
    const lines = readFileSync(isAbsolute(file) ? file : join(projectRoot, file), 'utf8').split('\n')
    lines.forEach((text, index) => {
      const match = /(?:\/\*|\/\/|<!--)[ \t]*eng-disable[ \t]+([\w \t]+)/.exec(text)
      if (!match) return
      const reason = /justified:\s*(.{15,})$/.exec(text)?.[1]?.trim() ?? null
      found.push({ file, line: index + 1, ids: match[1]!.trim().split(/[\s,]+/), reason, fileWide: index === 0 })
    })
  }
  return found
}

export const isBlocking = (finding: Finding) => finding.suppressed === null && (finding.severity === 'HIGH' || finding.severity === 'MEDIUM')

export function formatFinding(finding: Finding): string {
  const where = finding.file === 'N/A' ? 'global' : `${finding.file}:${finding.line}`
  return `${finding.severity.padEnd(6)} ${finding.confidence.padEnd(9)} ${finding.id} ${where}${finding.suppressed ? ` (hidden: ${finding.suppressed})` : ''}${finding.manualReview ? ' [review]' : ''}`
}
