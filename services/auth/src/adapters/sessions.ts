import { hashSecret } from '@crm/access';
import type { Scope } from '@crm/contracts';
import type { Pool, PoolClient } from '@crm/db';
import { sameSecret } from '@crm/secrets';
import type { AgentRole } from '../domain/agents';

export type SessionKind = 'credential' | 'bootstrap' | 'launch' | 'agent';

/** A session to store: its grant without a credential (bootstrap, launch), or the credential whose current row is its grant. */
export type NewSession = {
  principalId: string;
  principalName: string;
  issuedBy: string;
  ttlSeconds: number;
} & (
  | { kind: 'credential'; credentialId: string }
  | { kind: 'bootstrap'; bootstrapSha256: string; scopes: Scope[] }
  | { kind: 'launch'; scopes: Scope[]; ticketIds: string[]; linkId: string | null; agentId: string | null }
  | { kind: 'agent'; agentId: string }
);

/** A live session whose secret matched, with its credential's current row when it has one. */
export interface LiveSession {
  id: string;
  kind: SessionKind;
  principalId: string;
  principalName: string;
  scopes: Scope[] | null;
  ticketIds: string[] | null;
  bootstrapSha256: string | null;
  credential: { name: string; scopes: Scope[]; accountIds: string[] | null; trackingClientIds: string[] | null; revoked: boolean } | null;
  /** The agent's current row (a password sign-in, or a launch link that named the agent). */
  agent: { name: string; role: AgentRole; disabled: boolean } | null;
}

interface Row {
  id: string;
  secret_sha256: string;
  kind: SessionKind;
  credential_id: string | null;
  bootstrap_sha256: string | null;
  principal_id: string;
  principal_name: string;
  scopes: Scope[] | null;
  ticket_ids: string[] | null;
  live: boolean;
  credential_name: string | null;
  credential_scopes: Scope[] | null;
  account_ids: string[] | null;
  tracking_client_ids: string[] | null;
  credential_revoked: boolean | null;
  agent_id: string | null;
  agent_name: string | null;
  agent_role: AgentRole | null;
  agent_disabled: boolean | null;
}

/** Compared when the id is unknown, so an unknown id costs the same as a wrong secret. */
const NO_SUCH_HASH = hashSecret('no such session');

/**
 * The sessions auth issued (table `sessions`): stored with their secret's sha256 only,
 * found for verification with their credential's current row, ended, and purged.
 */
export class SessionStore {
  constructor(private readonly pool: Pool) {}

  /**
   * Stores a new session under `id` (its token `crs_<id>_<secret>`, made with newApiToken('session'));
   * only the secret's sha256 is kept. Null when it is a launch link's and that link opened a session already.
   */
  async create(session: NewSession, id: string, secret: string): Promise<{ expiresAt: Date } | null> {
    const { rows } = await this.pool.query<{ expires_at: Date }>(
      `INSERT INTO sessions (id, secret_sha256, kind, credential_id, bootstrap_sha256, principal_id, principal_name, scopes, ticket_ids, issued_by, expires_at, launch_link_id, agent_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now() + make_interval(secs => $11), $12, $13)
       ON CONFLICT (launch_link_id) WHERE launch_link_id IS NOT NULL DO NOTHING
       RETURNING expires_at`,
      [
        id,
        hashSecret(secret),
        session.kind,
        session.kind === 'credential' ? session.credentialId : null,
        session.kind === 'bootstrap' ? session.bootstrapSha256 : null,
        session.principalId,
        session.principalName,
        session.kind === 'credential' || session.kind === 'agent' ? null : session.scopes,
        session.kind === 'launch' ? session.ticketIds : null,
        session.issuedBy,
        session.ttlSeconds,
        session.kind === 'launch' ? session.linkId : null,
        session.kind === 'agent' || session.kind === 'launch' ? session.agentId : null,
      ],
    );
    return rows[0] ? { expiresAt: rows[0].expires_at } : null;
  }

  /** The session when its secret matches and it has neither ended nor expired; null otherwise. */
  async findLive(id: string, secret: string): Promise<LiveSession | null> {
    const { rows } = await this.pool.query<Row>(
      `SELECT s.id, s.secret_sha256, s.kind, s.credential_id, s.bootstrap_sha256, s.principal_id, s.principal_name, s.scopes, s.ticket_ids,
              (s.ended_at IS NULL AND s.expires_at > now()) AS live,
              c.name AS credential_name, c.scopes AS credential_scopes, c.account_ids, c.tracking_client_ids, (c.revoked_at IS NOT NULL) AS credential_revoked,
              s.agent_id, ag.display_name AS agent_name, ag.role AS agent_role, (ag.disabled_at IS NOT NULL) AS agent_disabled
       FROM sessions s LEFT JOIN api_credentials c ON c.id = s.credential_id LEFT JOIN agents ag ON ag.id = s.agent_id
       WHERE s.id = $1`,
      [id],
    );
    const row = rows[0];
    const matches = sameSecret(hashSecret(secret), row?.secret_sha256 ?? NO_SUCH_HASH);
    if (!row || !matches || !row.live) return null;
    return {
      id: row.id,
      kind: row.kind,
      principalId: row.principal_id,
      principalName: row.principal_name,
      scopes: row.scopes,
      ticketIds: row.ticket_ids,
      bootstrapSha256: row.bootstrap_sha256,
      credential:
        row.credential_id === null
          ? null
          : { name: row.credential_name!, scopes: row.credential_scopes!, accountIds: row.account_ids, trackingClientIds: row.tracking_client_ids, revoked: row.credential_revoked === true },
      agent: row.agent_id === null ? null : { name: row.agent_name!, role: row.agent_role!, disabled: row.agent_disabled === true },
    };
  }

  /** Ends a live session (in the caller's transaction); false when it had ended or expired already. */
  async end(client: PoolClient, id: string): Promise<boolean> {
    const { rowCount } = await client.query('UPDATE sessions SET ended_at = now() WHERE id = $1 AND ended_at IS NULL AND expires_at > now()', [id]);
    return rowCount === 1;
  }

  /** Ends every live session of the agent (in the caller's transaction); resolves their ids. */
  async endAllOfAgent(client: PoolClient, agentId: string): Promise<string[]> {
    const { rows } = await client.query<{ id: string }>('UPDATE sessions SET ended_at = now() WHERE agent_id = $1 AND ended_at IS NULL AND expires_at > now() RETURNING id', [agentId]);
    return rows.map((row) => row.id);
  }

  /** Deletes sessions that ended or expired more than `olderThanSeconds` ago; resolves how many. */
  async purge(olderThanSeconds: number): Promise<number> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM sessions WHERE expires_at < now() - make_interval(secs => $1) OR ended_at < now() - make_interval(secs => $1)`,
      [olderThanSeconds],
    );
    return rowCount ?? 0;
  }
}
