// npm run security: the electronegativity scan of electron/ and renderer/, every finding listed
// (LOW and suppressed ones too). test/unit/electron-security-scan.test.ts enforces the rules.
import { formatFinding, isBlocking, scanWithElectronegativity } from './electronegativity'

const result = await scanWithElectronegativity(['electron', 'renderer'])
console.log(`electronegativity: ${result.checks} checks, ${result.filesScanned} files, Electron ${result.electronVersion}`)
for (const finding of result.findings) console.log(`  ${formatFinding(finding)}`)
for (const error of result.errors) console.log(`  parse ${error.tolerable ? 'warning' : 'ERROR'} ${error.file}: ${error.message}`)
const blocking = result.findings.filter(isBlocking)
console.log(blocking.length === 0 ? 'no unjustified HIGH or MEDIUM finding' : `${blocking.length} unjustified HIGH/MEDIUM finding(s)`)
process.exit(blocking.length > 0 || result.errors.some((e) => !e.tolerable) ? 1 : 0)
