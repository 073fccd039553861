import pg from 'pg';

export interface DatabaseRoles {
  /** The service's database. */
  database: string;
  /** Owns the database and its schema; runs the migrations. */
  migrator: { name: string; password: string };
  /** What the running service connects as: no superuser, no CREATE, only DML on the migrator's tables. */
  app: { name: string; password: string };
  /** Tables the app role may only read and add to (access.ts, APPEND_ONLY_TABLES); none when absent. */
  appendOnly?: readonly string[];
}

const ident = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`refusing an unusual PostgreSQL name '${name}'`);
  return `"${name}"`;
};

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const ROLE_OPTIONS = 'LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS';

async function ensureRole(client: pg.Client, role: { name: string; password: string }): Promise<void> {
  const { rowCount } = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role.name]);
  const password = client.escapeLiteral(role.password);
  await client.query(`${rowCount ? 'ALTER' : 'CREATE'} ROLE ${ident(role.name)} ${ROLE_OPTIONS} PASSWORD ${password}`);
}

async function ensureDatabaseOwnedBy(client: pg.Client, database: string, owner: string): Promise<void> {
  const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  if (!rowCount) await client.query(`CREATE DATABASE ${ident(database)} OWNER ${ident(owner)}`);
  else await client.query(`ALTER DATABASE ${ident(database)} OWNER TO ${ident(owner)}`);
  await client.query(`REVOKE ALL ON DATABASE ${ident(database)} FROM PUBLIC`);
}

/**
 * Inside the service's database: the migrator owns the schema and every table and sequence
 * already there (a database migrated before, as a superuser); the app role may use the schema
 * and read and write rows, now and in every table the migrator creates later, nothing else,
 * and only read and add rows of the append-only tables. The app role's table and sequence
 * rights are set anew in one transaction, so every run leaves exactly these (none granted by
 * hand or by an earlier run survives) and a running service never sees them missing.
 */
async function grantInside(client: pg.Client, roles: DatabaseRoles): Promise<void> {
  const migrator = ident(roles.migrator.name);
  const app = ident(roles.app.name);
  await client.query('BEGIN');
  try {
    await client.query(`ALTER SCHEMA public OWNER TO ${migrator}`);
    await client.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
    const owned = await client.query<{ kind: string; name: string }>(
      `SELECT CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' ELSE 'TABLE' END AS kind, c.relname AS name
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'S') AND pg_get_userbyid(c.relowner) <> $1
          AND NOT (c.relkind = 'S' AND EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype IN ('a', 'i')))`,
      [roles.migrator.name],
    );
    for (const { kind, name } of owned.rows) await client.query(`ALTER ${kind} public.${client.escapeIdentifier(name)} OWNER TO ${migrator}`);
    await client.query(`GRANT CONNECT ON DATABASE ${ident(roles.database)} TO ${app}`);
    await client.query(`GRANT USAGE ON SCHEMA public TO ${app}`);
    await client.query(`REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ${app}`);
    await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${app}`);
    // An append-only table's partitions too (the raw log's weeks): a statement may name one.
    const appendOnly = await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
          AND (c.relname = ANY($1) OR EXISTS (SELECT 1 FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhparent WHERE i.inhrelid = c.oid AND p.relname = ANY($1)))`,
      [[...(roles.appendOnly ?? [])]],
    );
    for (const { name } of appendOnly.rows) await client.query(`REVOKE UPDATE, DELETE ON public.${client.escapeIdentifier(name)} FROM ${app}`);
    await client.query(`REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM ${app}`);
    await client.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${app}`);
    // Tables the migrator makes later: an append-only one's migration takes UPDATE and DELETE back itself.
    await client.query(`ALTER DEFAULT PRIVILEGES FOR ROLE ${migrator} IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${app}`);
    await client.query(`ALTER DEFAULT PRIVILEGES FOR ROLE ${migrator} IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO ${app}`);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Creates or updates a service's two roles and its database (idempotent). `adminUrl`: a superuser on any database of the server. */
export async function provisionDatabase(adminUrl: string, roles: DatabaseRoles): Promise<void> {
  await withClient(adminUrl, async (client) => {
    await ensureRole(client, roles.migrator);
    await ensureRole(client, roles.app);
    await ensureDatabaseOwnedBy(client, roles.database, roles.migrator.name);
  });
  await withClient(roleUrl(adminUrl, undefined, roles.database), (client) => grantInside(client, roles));
}

/** `base` with another user (when given) and database. */
export function roleUrl(base: string, role: { name: string; password: string } | undefined, database: string): string {
  const url = new URL(base);
  if (role) {
    url.username = encodeURIComponent(role.name);
    url.password = encodeURIComponent(role.password);
  }
  url.pathname = `/${database}`;
  return url.toString();
}

/** Drops a service's database and roles (tests). */
export async function dropDatabaseRoles(adminUrl: string, roles: DatabaseRoles): Promise<void> {
  await withClient(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${ident(roles.database)} WITH (FORCE)`);
    for (const role of [roles.app, roles.migrator]) await client.query(`DROP ROLE IF EXISTS ${ident(role.name)}`);
  });
}
