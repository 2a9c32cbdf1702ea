/**
 * The SQLite schema, as migrations applied in order inside one transaction each; PRAGMA
 * user_version records how many have run. Never edit a shipped migration: add a new one (and its
 * PostgreSQL counterpart in migrations-postgres.ts).
 */
export const sqliteMigrations: readonly string[] = [
  `
  CREATE TABLE signing_keys (
    kid TEXT PRIMARY KEY,
    secret BLOB NOT NULL,
    created INTEGER NOT NULL
  );
  CREATE TABLE oauth_clients (
    client_id TEXT PRIMARY KEY,
    secret_hash BLOB NOT NULL,
    salt BLOB NOT NULL,
    scope TEXT NOT NULL,
    created INTEGER NOT NULL
  );
  CREATE TABLE tenants (
    code TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    max_identities INTEGER NOT NULL DEFAULT 0,
    default_post_back TEXT,
    created INTEGER NOT NULL,
    modified INTEGER NOT NULL
  );
  CREATE TABLE persons (
    uuid TEXT PRIMARY KEY,
    user_id TEXT NOT NULL UNIQUE COLLATE NOCASE,
    device_id TEXT UNIQUE,
    created INTEGER NOT NULL,
    modified INTEGER NOT NULL
  );
  CREATE TABLE tenant_persons (
    tenant_code TEXT NOT NULL REFERENCES tenants(code) ON DELETE CASCADE,
    person_uuid TEXT NOT NULL REFERENCES persons(uuid) ON DELETE CASCADE,
    associated INTEGER NOT NULL,
    PRIMARY KEY (tenant_code, person_uuid)
  );
  CREATE INDEX tenant_persons_by_person ON tenant_persons(person_uuid);
  CREATE TABLE tenant_apps (
    tenant_code TEXT NOT NULL REFERENCES tenants(code) ON DELETE CASCADE,
    app_code TEXT NOT NULL,
    associated INTEGER NOT NULL,
    PRIMARY KEY (tenant_code, app_code)
  );
  CREATE TABLE tenant_algorithms (
    tenant_code TEXT NOT NULL REFERENCES tenants(code) ON DELETE CASCADE,
    alg_code TEXT NOT NULL,
    info TEXT,
    max_identities INTEGER,
    expire_date INTEGER,
    associated INTEGER NOT NULL,
    PRIMARY KEY (tenant_code, alg_code)
  );
  CREATE TABLE tenant_alg_liveness (
    tenant_code TEXT NOT NULL,
    alg_code TEXT NOT NULL,
    liveness_code TEXT NOT NULL,
    associated INTEGER NOT NULL,
    PRIMARY KEY (tenant_code, alg_code, liveness_code),
    FOREIGN KEY (tenant_code, alg_code) REFERENCES tenant_algorithms(tenant_code, alg_code) ON DELETE CASCADE
  );
  CREATE TABLE templates (
    person_id TEXT NOT NULL,
    template_type TEXT NOT NULL,
    template_context TEXT NOT NULL,
    data BLOB NOT NULL,
    size INTEGER NOT NULL,
    created INTEGER NOT NULL,
    PRIMARY KEY (person_id, template_type, template_context)
  );
  CREATE INDEX templates_by_type ON templates(template_type);
  `,
  // 2: BioEngine person ids are case-insensitive (store/person-id.ts). Existing ids are lower-cased;
  // where case variants of one id held the same (type, context), the newest template is kept. The
  // column becomes COLLATE NOCASE, so no case variant can be stored beside its canonical form. One
  // sort, not a lookup per row: a store of 100k templates migrates in seconds.
  `
  CREATE TABLE templates_nocase (
    person_id TEXT NOT NULL COLLATE NOCASE,
    template_type TEXT NOT NULL,
    template_context TEXT NOT NULL,
    data BLOB NOT NULL,
    size INTEGER NOT NULL,
    created INTEGER NOT NULL,
    PRIMARY KEY (person_id, template_type, template_context)
  );
  INSERT INTO templates_nocase (person_id, template_type, template_context, data, size, created)
    SELECT person_id, template_type, template_context, data, size, created FROM (
      SELECT lower(person_id) AS person_id, template_type, template_context, data, size, created,
        row_number() OVER (PARTITION BY lower(person_id), template_type, template_context ORDER BY created DESC, rowid DESC) AS newest
      FROM templates
    ) WHERE newest = 1;
  DROP TABLE templates;
  ALTER TABLE templates_nocase RENAME TO templates;
  CREATE INDEX templates_by_type ON templates(template_type);
  `,
  // 3: a tenant may opt in to keeping each enrollment's normalized face crops (sealed like the
  // templates), so templates of another type can be built from them (face-crops.ts).
  `
  ALTER TABLE tenants ADD COLUMN keep_face_crops INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE face_crops (
    person_id TEXT NOT NULL COLLATE NOCASE,
    template_context TEXT NOT NULL,
    seq INTEGER NOT NULL,
    data BLOB NOT NULL,
    created INTEGER NOT NULL,
    PRIMARY KEY (person_id, template_context, seq)
  );
  `,
  // 4: the change log (change-log.ts): every write that changes what identify can find appends a
  // row in its transaction; the floor is the highest seq pruned, below which a reader must reload.
  `
  CREATE TABLE change_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    template_type TEXT NOT NULL,
    person_id TEXT COLLATE NOCASE,
    template_context TEXT
  );
  CREATE TABLE change_log_floor (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL);
  INSERT INTO change_log_floor (id, seq) VALUES (1, 0);
  `,
  // 5: a cache load reads one type's templates a page at a time in key order. With the type alone
  // indexed, each page walked every template of the type and sorted them (quadratic: a million
  // took minutes); keyed by type then person and context, as on PostgreSQL, a page is a range.
  `
  DROP INDEX templates_by_type;
  CREATE INDEX templates_by_type ON templates(template_type, person_id, template_context);
  `,
]
