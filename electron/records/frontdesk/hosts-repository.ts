import type { Host } from '../../shared/visits'
import type { Sql } from '../sql/types'
import type { HostFields } from './visit-types'

export interface HostRow {
  id: string
  name: string
  email: string | null
  webhook_url: string | null
  created_at: number
}

const hostOf = (row: HostRow): Host => ({ id: row.id, name: row.name, email: row.email, webhookUrl: row.webhook_url })

/** The site's hosts directory: whom visitors come to see, and where each is told of an arrival. */
export class HostRepository {
  constructor(private readonly sql: Sql) {}

  /** By name, any case (ASCII, as both dialects fold it), then id: the order staff and visitors pick from. */
  async list(): Promise<Host[]> {
    return (await this.sql.all<HostRow>('SELECT * FROM hosts ORDER BY lower(name), id')).map(hostOf)
  }

  async get(id: string): Promise<Host | null> {
    const row = await this.sql.get<HostRow>('SELECT * FROM hosts WHERE id = ?', [id])
    return row ? hostOf(row) : null
  }

  async insert(id: string, fields: HostFields, at: number): Promise<void> {
    await this.sql.run('INSERT INTO hosts (id, name, email, webhook_url, created_at) VALUES (?, ?, ?, ?, ?)', [id, fields.name, fields.email, fields.webhookUrl, at])
  }

  /** A host as another store kept it (the import of a kiosk's visits.db); one already here is kept. */
  async insertImported(row: HostRow): Promise<boolean> {
    const changed = await this.sql.run('INSERT INTO hosts (id, name, email, webhook_url, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING', [
      row.id,
      row.name,
      row.email,
      row.webhook_url,
      row.created_at,
    ])
    return changed > 0
  }

  /** False when there is no such host. */
  async update(id: string, fields: HostFields): Promise<boolean> {
    return (await this.sql.run('UPDATE hosts SET name = ?, email = ?, webhook_url = ? WHERE id = ?', [fields.name, fields.email, fields.webhookUrl, id])) > 0
  }

  async remove(id: string): Promise<boolean> {
    return (await this.sql.run('DELETE FROM hosts WHERE id = ?', [id])) > 0
  }
}
