/**
 * The PostgreSQL schema, as versioned migrations (schema_migrations records each one applied). The
 * same tables as SQLite's, in PostgreSQL's types: ids that SQLite compares COLLATE NOCASE are
 * citext here, epoch milliseconds are bigint, blobs are bytea. Never edit a shipped migration.
 */
export const postgresMigrations: readonly string[] = [
  `
  CREATE EXTENSION IF NOT EXISTS citext;
  CREATE TABLE signing_keys (
    kid text PRIMARY KEY,
    secret bytea NOT NULL,
    created bigint NOT NULL
  );
  CREATE TABLE oauth_clients (
    client_id text PRIMARY KEY,
    secret_hash bytea NOT NULL,
    salt bytea NOT NULL,
    scope text NOT NULL,
    created bigint NOT NULL
  );
  CREATE TABLE tenants (
    code text PRIMARY KEY,
    name text NOT NULL,
    max_identities integer NOT NULL DEFAULT 0,
    default_post_back text,
    keep_face_crops integer NOT NULL DEFAULT 0,
    created bigint NOT NULL,
    modified bigint NOT NULL
  );
  CREATE TABLE persons (
    uuid citext PRIMARY KEY,
    user_id citext NOT NULL UNIQUE,
    device_id text UNIQUE,
    created bigint NOT NULL,
    modified bigint NOT NULL
  );
  CREATE TABLE tenant_persons (
    tenant_code text NOT NULL REFERENCES tenants(code) ON DELETE CASCADE,
    person_uuid citext NOT NULL REFERENCES persons(uuid) ON DELETE CASCADE,
    associated bigint NOT NULL,
    PRIMARY KEY (tenant_code, person_uuid)
  );
  CREATE INDEX tenant_persons_by_person ON tenant_persons(person_uuid);
  CREATE TABLE tenant_apps (
    tenant_code text NOT NULL REFERENCES tenants(code) ON DELETE CASCADE,
    app_code text NOT NULL,
    associated bigint NOT NULL,
    PRIMARY KEY (tenant_code, app_code)
  );
  CREATE TABLE tenant_algorithms (
    tenant_code text NOT NULL REFERENCES tenants(code) ON DELETE CASCADE,
    alg_code text NOT NULL,
    info text,
    max_identities integer,
    expire_date bigint,
    associated bigint NOT NULL,
    PRIMARY KEY (tenant_code, alg_code)
  );
  CREATE TABLE tenant_alg_liveness (
    tenant_code text NOT NULL,
    alg_code text NOT NULL,
    liveness_code text NOT NULL,
    associated bigint NOT NULL,
    PRIMARY KEY (tenant_code, alg_code, liveness_code),
    FOREIGN KEY (tenant_code, alg_code) REFERENCES tenant_algorithms(tenant_code, alg_code) ON DELETE CASCADE
  );
  CREATE TABLE templates (
    person_id citext NOT NULL,
    template_type text NOT NULL,
    template_context text NOT NULL,
    data bytea NOT NULL,
    size integer NOT NULL,
    created bigint NOT NULL,
    PRIMARY KEY (person_id, template_type, template_context)
  );
  CREATE INDEX templates_by_type ON templates(template_type, person_id, template_context);
  CREATE TABLE face_crops (
    person_id citext NOT NULL,
    template_context text NOT NULL,
    seq integer NOT NULL,
    data bytea NOT NULL,
    created bigint NOT NULL,
    PRIMARY KEY (person_id, template_context, seq)
  );
  CREATE TABLE change_log (
    seq bigserial PRIMARY KEY,
    template_type text NOT NULL,
    person_id citext,
    template_context text
  );
  CREATE TABLE change_log_floor (id integer PRIMARY KEY CHECK (id = 1), seq bigint NOT NULL);
  INSERT INTO change_log_floor (id, seq) VALUES (1, 0);
  `,
]
