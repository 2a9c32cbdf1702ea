// pgpass ships no types: the one call the records layer makes (sql/password.ts).
declare module 'pgpass' {
  function pgpass(
    connection: { host: string; port: string; database: string | undefined; user: string | undefined },
    callback: (password: string | undefined) => void,
  ): void
  export default pgpass
}
