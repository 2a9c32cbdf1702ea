import { findElectronBinary } from './electron-binary'

/** Says once, plainly, why the Electron e2e will not run on this machine. */
export default function globalSetup(): void {
  const binary = findElectronBinary()
  if ('reason' in binary) console.log(`\nElectron e2e SKIPPED: ${binary.reason}.\n`)
  else console.log(`\nElectron e2e: using ${binary.path}\n`)
}
