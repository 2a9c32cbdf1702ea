#!/usr/bin/env node
// Adds up the JSON reports of this run's test runners into one closing line: "N passed, N failed".
import { existsSync, readFileSync } from 'node:fs'

const reports = { vitest: ['test-results/vitest-unit.json', 'test-results/vitest-fuzz.json', 'test-results/vitest-keychain.json'], playwright: ['test-results/e2e-liveness.json', 'test-results/e2e.json', 'test-results/e2e-loaded.json', 'test-results/electron-e2e.json'] }
let passed = 0
let failed = 0
let skipped = 0
for (const file of reports.vitest) {
  if (!existsSync(file)) throw new Error(`missing test report ${file}`)
  const r = JSON.parse(readFileSync(file, 'utf8'))
  passed += r.numPassedTests
  failed += r.numFailedTests
  skipped += r.numPendingTests + r.numTodoTests
}
for (const file of reports.playwright) {
  if (!existsSync(file)) throw new Error(`missing test report ${file}`)
  const { stats } = JSON.parse(readFileSync(file, 'utf8'))
  passed += stats.expected + stats.flaky
  failed += stats.unexpected
  skipped += stats.skipped
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(failed > 0 || passed === 0 ? 1 : 0)
