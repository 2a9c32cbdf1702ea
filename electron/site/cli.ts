import { parseSiteCommand, type PairArgs, type SiteCommand } from './args'
import { makePairingCode, rotateInviteKey } from './pair'
import { Site } from './site'

/**
 * npm run site: PostgreSQL, N engines and haproxy on this machine (see docs/site.md).
 * Prints on stdout only the lines to wait on; everything else goes to stderr.
 * Ctrl+C, SIGTERM or SIGHUP stop it all in order and exit 0; a failed start stops what had
 * started and exits 1; bad flags exit 2.
 * `npm run site -- pair --data DIR` instead prints a one-time pairing code for a kiosk, and
 * `rotate-invite-key` gives invitation codes a new signing key (pair.ts).
 */
async function main(): Promise<void> {
  let command: SiteCommand
  try {
    command = parseSiteCommand(process.argv.slice(2))
  } catch (error) {
    console.error((error as Error).message)
    process.exit(2)
  }
  if (command.command === 'pair') return pair(command.args)
  if (command.command === 'rotate-invite-key') return rotate(command.args)
  const { args } = command as Extract<SiteCommand, { command: 'run' }>
  // Files this process makes (config, keys) are this user's alone.
  process.umask(0o077)
  const site = new Site(args, { print: (line) => console.log(line), log: (line) => console.error(line) })

  let stopping = false
  const stop = (why: string, code: number) => {
    if (stopping) return
    stopping = true
    console.error(`site: ${why}`)
    console.error('site: stopping')
    site.stop().then(
      () => process.exit(code),
      (error: unknown) => {
        console.error(`site: stopping failed: ${(error as Error).message}`)
        process.exit(1)
      },
    )
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(signal, 0))

  try {
    await site.start()
  } catch (error) {
    // A signal during start has its own way out (exit 0 once stopped).
    if (!stopping) stop(`failed to start: ${(error as Error).message}`, 1)
  }
}

void main()

/** `npm run site -- pair`: prints the code on stdout, exactly `pairing code <code> expires <ISO time>`; exits 0, or 1 with the reason on stderr. */
async function pair(args: PairArgs): Promise<void> {
  try {
    const { code, expiresAt } = await makePairingCode(args)
    // Exit once the line is written: stdout may be a pipe the caller reads.
    process.stdout.write(`pairing code ${code} expires ${expiresAt}\n`, () => process.exit(0))
  } catch (error) {
    console.error(`site pair: ${(error as Error).message}`)
    process.exit(1)
  }
}

/** `npm run site -- rotate-invite-key`: prints `invite key <id>`; exits 0, or 1 with the reason on stderr. */
async function rotate(args: PairArgs): Promise<void> {
  try {
    const kid = await rotateInviteKey(args)
    process.stdout.write(`invite key ${kid}\n`, () => process.exit(0))
  } catch (error) {
    console.error(`site rotate-invite-key: ${(error as Error).message}`)
    process.exit(1)
  }
}
