export interface PatroniNodeConfig {
  /** 1-based, as printed: the member is named node<n>. */
  n: number
  /** The node's folder (owned by postgres): its data, sockets and Patroni's pgpass. */
  folder: string
  dataDir: string
  postgresPort: number
  restPort: number
  etcdClientPort: number
  binDir: string
  superuserPassword: string
  replicationPassword: string
}

/** The Patroni cluster's name: the etcd keys live under /service/<scope>. */
export const SCOPE = 'kiosk-site'
export const REPLICATION_USER = 'replicator'

/**
 * Patroni's configuration for one node of the site (`npm run site -- --ha`), as JSON (which YAML
 * reads). Everything listens on loopback. The dynamic part (bootstrap.dcs) is written to etcd by
 * the node that initialises the cluster:
 * - synchronous_mode: a commit is acknowledged once the standby has it, so a failover loses no
 *   acknowledged write; not strict, so the primary keeps serving while the standby is away.
 *   synchronous_commit remote_apply: once the standby has applied it, so the engines' reads there
 *   while there is no primary (--read-database) find every acknowledged write.
 * - ttl 10 / loop_wait 1 / retry_timeout 4: the standby takes over about 10 s after the primary's
 *   Patroni dies (loop_wait + 2 × retry_timeout must stay below ttl).
 * - use_pg_rewind, or a fresh clone when rewind fails: the old primary comes back as a standby.
 * The superuser connects over the node's unix socket (peer, as the postgres account); the
 * replication and rewind connections over TCP with passwords (scram-sha-256).
 */
export function renderPatroniConfig(config: PatroniNodeConfig): string {
  const postgres = `127.0.0.1:${config.postgresPort}`
  const rest = `127.0.0.1:${config.restPort}`
  const document = {
    scope: SCOPE,
    name: `node${config.n}`,
    log: { level: 'INFO' },
    restapi: { listen: rest, connect_address: rest },
    etcd3: { hosts: [`127.0.0.1:${config.etcdClientPort}`] },
    bootstrap: {
      dcs: {
        ttl: 10,
        loop_wait: 1,
        retry_timeout: 4,
        maximum_lag_on_failover: 1048576,
        synchronous_mode: true,
        synchronous_mode_strict: false,
        postgresql: {
          use_pg_rewind: true,
          use_slots: true,
          parameters: { wal_log_hints: 'on', max_connections: 200, password_encryption: 'scram-sha-256', synchronous_commit: 'remote_apply' },
        },
      },
      initdb: [{ encoding: 'UTF8' }, { locale: 'C.UTF-8' }, { 'auth-local': 'peer' }, { 'auth-host': 'scram-sha-256' }],
      pg_hba: ['local all all peer', `host replication ${REPLICATION_USER} 127.0.0.1/32 scram-sha-256`, 'host all all 127.0.0.1/32 scram-sha-256'],
    },
    postgresql: {
      listen: postgres,
      connect_address: postgres,
      data_dir: config.dataDir,
      bin_dir: config.binDir,
      pgpass: `${config.folder}/.pgpass-patroni`,
      use_unix_socket: true,
      use_unix_socket_repl: false,
      remove_data_directory_on_rewind_failure: true,
      remove_data_directory_on_diverged_timelines: true,
      authentication: {
        superuser: { username: 'postgres', password: config.superuserPassword },
        replication: { username: REPLICATION_USER, password: config.replicationPassword },
      },
      parameters: { unix_socket_directories: config.folder, unix_socket_permissions: '0700' },
    },
    tags: { nofailover: false, noloadbalance: false, clonefrom: false, nosync: false },
  }
  return `${JSON.stringify(document, null, 2)}\n`
}
