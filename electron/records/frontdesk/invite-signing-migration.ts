import type { MigrationStep } from '../sql/migrate'

/**
 * Invitation keys with a public half (step 12 of the frontdesk set): a site signs codes with Ed25519
 * so its kiosks check them with the public key while the site is away. Keys made before keep
 * public_key null: HMAC keys, still checking the codes they signed (invite-keyring.ts).
 */
export const inviteSigningStep: MigrationStep = {
  sqlite: `ALTER TABLE invite_keys ADD COLUMN public_key BLOB;`,
  postgres: `ALTER TABLE invite_keys ADD COLUMN public_key bytea;`,
}
