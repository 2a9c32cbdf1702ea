import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { sqliteMigrations as migrations } from '../../electron/engine/store/sql/migrations-sqlite'
import { canonicalPersonId } from '../../electron/engine/store/person-id'
import { migrateEngineSchema } from '../../electron/engine/store/schema'
import { openSqlite } from '../../electron/records/sql/sqlite'

describe('BioEngine person ids', () => {
  it('have one canonical form: ASCII letters lower-cased, nothing else touched', () => {
    expect(canonicalPersonId('3F2504E0-4F89-11D3-9A0C-0305E82C3301')).toBe('3f2504e0-4f89-11d3-9a0c-0305e82c3301')
    expect(canonicalPersonId('Ada.Lovelace+Kiosk@Example.ORG')).toBe('ada.lovelace+kiosk@example.org')
    expect(canonicalPersonId('already-lower_1')).toBe('already-lower_1')
  })

  it('are lower-cased in a database from before the rule, keeping the newest template where case variants collide', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'engine-db-')), 'engine.db')
    const old = new Database(file)
    old.exec(migrations[0]!)
    old.pragma('user_version = 1')
    const insert = old.prepare('INSERT INTO templates (person_id, template_type, template_context, data, size, created) VALUES (?, ?, ?, ?, 1, ?)')
    insert.run('Ada@Example.com', 'Face:X', 'desk', Buffer.from('older'), 1)
    insert.run('ada@example.com', 'Face:X', 'desk', Buffer.from('newest'), 3)
    insert.run('ADA@EXAMPLE.COM', 'Face:X', 'desk', Buffer.from('middle'), 2)
    insert.run('ADA@EXAMPLE.COM', 'Face:X', 'door', Buffer.from('only one'), 1)
    insert.run('AB12-CD', 'Face:Y', 'desk', Buffer.from('uuid-like'), 1)
    old.close()

    const migrated = openSqlite(file)
    await migrateEngineSchema(migrated)
    await migrated.close()
    const db = new Database(file)
    const rows = db.prepare('SELECT person_id, template_type, template_context, CAST(data AS TEXT) AS data FROM templates ORDER BY person_id, template_context').all()
    expect(rows).toEqual([
      { person_id: 'ab12-cd', template_type: 'Face:Y', template_context: 'desk', data: 'uuid-like' },
      { person_id: 'ada@example.com', template_type: 'Face:X', template_context: 'desk', data: 'newest' },
      { person_id: 'ada@example.com', template_type: 'Face:X', template_context: 'door', data: 'only one' },
    ])
    // The column compares case-insensitively, so no case variant can be stored beside its canonical form.
    expect(() => db.prepare("INSERT INTO templates VALUES ('Ada@Example.COM', 'Face:X', 'desk', x'00', 1, 9)").run()).toThrow(/UNIQUE/)
    expect(db.prepare("SELECT COUNT(*) AS n FROM templates WHERE person_id = 'AB12-cd'").get()).toEqual({ n: 1 })
    db.close()
  })
})
