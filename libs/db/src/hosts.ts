import pg from 'pg';

/**
 * Database URLs naming several servers, as libpq takes them:
 * `postgres://user@host1:5432,host2:5432/db?target_session_attrs=read-write`. node-postgres
 * takes one host per URL, so the server is chosen here, as libpq would: each in turn, the
 * first that answers, and with `target_session_attrs=read-write` the first that is not a
 * standby (`SELECT pg_is_in_recovery()` false), so a failover needs no new address.
 */
export interface ServerAddress {
  host: string;
  port: number;
}

export interface DatabaseServers {
  servers: ServerAddress[];
  /** true when the URL asks for a server that takes writes (target_session_attrs=read-write or primary). */
  readWrite: boolean;
  /** The URL naming only `server`, without target_session_attrs (which node-postgres would not know). */
  urlFor: (server: ServerAddress) => string;
}

const URL_PARTS = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)(.*)$/;

function parseServer(text: string): ServerAddress {
  const match = /^([^:,]+)(?::(\d+))?$/.exec(text.trim());
  if (!match?.[1]) throw new Error(`"${text}" is not a host or host:port`);
  return { host: match[1], port: match[2] ? Number(match[2]) : 5432 };
}

/** The servers a database URL names; throws with a sentence when it is not a postgres:// URL. */
export function databaseServers(url: string): DatabaseServers {
  const parts = URL_PARTS.exec(url);
  if (!parts) throw new Error('the database URL must look like postgres://user@host:5432/database (several hosts separated by commas)');
  const [, scheme, credentials = '', hostList = '', rest = ''] = parts;
  const servers = hostList.split(',').map(parseServer);
  const [path, query = ''] = rest.split('?', 2);
  const params = new URLSearchParams(query);
  const attrs = params.get('target_session_attrs') ?? 'any';
  params.delete('target_session_attrs');
  const remaining = params.toString();
  return {
    servers,
    readWrite: attrs === 'read-write' || attrs === 'primary',
    urlFor: (server) => `${scheme}${credentials}${server.host}:${server.port}${path ?? ''}${remaining ? `?${remaining}` : ''}`,
  };
}

/** True when `url` names more than one server (or asks for the read-write one): connections go through findServer. */
export function isMultiHost(url: string): boolean {
  if (!URL_PARTS.test(url)) return false;
  const { servers, readWrite } = databaseServers(url);
  return servers.length > 1 || readWrite;
}

/** How long one server may take to answer before the next is tried. */
const PROBE_TIMEOUT_MS = 3000;

/** Why `server` will not do, or undefined when it will. */
async function probe(url: string, readWrite: boolean): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS, application_name: 'server-probe' });
  client.on('error', () => undefined);
  try {
    await client.connect();
    if (!readWrite) return undefined;
    const { rows } = await client.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
    return rows[0]?.standby ? 'a standby (read-only)' : undefined;
  } catch (error) {
    return (error as Error).message || String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The server found last, per URL: tried first next time, so the usual case is one probe. */
const lastFound = new Map<string, ServerAddress>();

/** The server of `url` to connect to now: tried in turn, the one found last first. Throws naming each server and what it answered. */
export async function findServer(url: string): Promise<ServerAddress> {
  const { servers, readWrite, urlFor } = databaseServers(url);
  const last = lastFound.get(url);
  const ordered = last ? [last, ...servers.filter((server) => server.host !== last.host || server.port !== last.port)] : servers;
  const refusals: string[] = [];
  for (const server of ordered) {
    const refusal = await probe(urlFor(server), readWrite);
    if (!refusal) {
      lastFound.set(url, server);
      return server;
    }
    refusals.push(`${server.host}:${server.port}: ${refusal}`);
  }
  // 08001 (sqlclient_unable_to_establish_sqlconnection), as libpq would say it: an outage, not a bad request.
  throw Object.assign(new Error(`no database server ${readWrite ? 'that takes writes ' : ''}answered (${refusals.join('; ')})`), { code: '08001' });
}

/** `url` narrowed to the one server to use now (a URL with one host and no target_session_attrs is returned as it is). */
export async function resolveDatabaseUrl(url: string): Promise<string> {
  if (!isMultiHost(url)) return url;
  return databaseServers(url).urlFor(await findServer(url));
}
