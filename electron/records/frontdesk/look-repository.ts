import type { Sql } from '../sql/types'

/** The look as stored: the logo as its PNG bytes. */
export interface StoredLook {
  organisationName: string
  welcomeLine: string
  accentColour: string
  visitorRetentionDays: number | null
  logo: Buffer | null
}

interface LookRow {
  organisation_name: string
  welcome_line: string
  accent_colour: string
  visitor_retention_days: number | null
  logo: Buffer | Uint8Array | null
}

const columns = {
  organisationName: 'organisation_name',
  welcomeLine: 'welcome_line',
  accentColour: 'accent_colour',
  visitorRetentionDays: 'visitor_retention_days',
  logo: 'logo',
} as const satisfies Record<keyof StoredLook, string>

/** The organisation's look: one row (id 1); none until someone sets it. */
export class LookRepository {
  constructor(private readonly sql: Sql) {}

  async get(): Promise<StoredLook | null> {
    const row = await this.sql.get<LookRow>('SELECT organisation_name, welcome_line, accent_colour, visitor_retention_days, logo FROM look WHERE id = 1')
    if (!row) return null
    return {
      organisationName: row.organisation_name,
      welcomeLine: row.welcome_line,
      accentColour: row.accent_colour,
      visitorRetentionDays: row.visitor_retention_days === null ? null : Number(row.visitor_retention_days),
      logo: row.logo === null ? null : Buffer.from(row.logo),
    }
  }

  /**
   * Writes only the fields given, over the row (made from `initial` when there is none): two
   * administrators changing different fields at once both keep their change.
   */
  async update(patch: Partial<StoredLook>, initial: StoredLook, at: number): Promise<void> {
    await this.sql.run(
      `INSERT INTO look (id, organisation_name, welcome_line, accent_colour, visitor_retention_days, logo, updated_at) VALUES (1, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO NOTHING`,
      [initial.organisationName, initial.welcomeLine, initial.accentColour, initial.visitorRetentionDays, initial.logo, at],
    )
    const keys = (Object.keys(patch) as Array<keyof StoredLook>).filter((key) => patch[key] !== undefined)
    const sets = keys.map((key) => `${columns[key]} = ?`)
    await this.sql.run(`UPDATE look SET ${[...sets, 'updated_at = ?'].join(', ')} WHERE id = 1`, [...keys.map((key) => patch[key]), at])
  }
}
