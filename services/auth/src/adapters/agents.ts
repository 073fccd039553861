import { randomBytes } from 'node:crypto';
import type { Pool, PoolClient } from '@crm/db';
import type { AgentChanges, AgentRole } from '../domain/agents';

/** An agent as listed and shown: never its password hash. */
export interface Agent {
  id: string;
  email: string;
  displayName: string;
  role: AgentRole;
  teams: string[];
  externalId: string | null;
  createdAt: string;
  disabled: boolean;
}

export interface Team {
  id: string;
  name: string;
  agentIds: string[];
}

interface AgentRow {
  id: string;
  email: string;
  display_name: string;
  role: AgentRole;
  external_id: string | null;
  created_at: Date;
  disabled_at: Date | null;
  teams: string[];
  password_hash?: string | null;
}

const agentOf = (row: AgentRow): Agent => ({
  id: row.id,
  email: row.email,
  displayName: row.display_name,
  role: row.role,
  teams: row.teams,
  externalId: row.external_id,
  createdAt: row.created_at.toISOString(),
  disabled: row.disabled_at !== null,
});

const SELECT_AGENT = `SELECT a.id, a.email, a.display_name, a.role, a.external_id, a.created_at, a.disabled_at, a.password_hash,
  coalesce(array_agg(t.team_id ORDER BY t.team_id) FILTER (WHERE t.team_id IS NOT NULL), '{}') AS teams
  FROM agents a LEFT JOIN agent_teams t ON t.agent_id = a.id`;

/** A new agent's row, as the store takes it: its password already hashed. */
export interface NewAgent {
  email: string;
  displayName: string;
  role: AgentRole;
  teams: string[];
  passwordHash: string | null;
  externalId: string | null;
}

/** The email or external id is taken already. */
export class AgentExists extends Error {
  override name = 'AgentExists';
  constructor(readonly field: 'email' | 'externalId') {
    super(field === 'email' ? 'an agent with this email exists already' : 'an agent with this external id exists already');
  }
}

/** A team the agent is to join does not exist. */
export class UnknownTeam extends Error {
  override name = 'UnknownTeam';
  constructor(readonly teamId: string) {
    super(`there is no team ${teamId}; create it first`);
  }
}

/** The change would leave no active admin: nobody could manage agents any more. */
export class LastActiveAdmin extends Error {
  override name = 'LastActiveAdmin';
  constructor() {
    super('this is the last active admin; make another agent an admin first, then change this one');
  }
}

/** Agents and teams (tables `agents`, `teams`, `agent_teams`). */
export class AgentStore {
  constructor(private readonly pool: Pool) {}

  async create(agent: NewAgent): Promise<Agent> {
    const id = randomBytes(10).toString('hex').slice(0, 16);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('INSERT INTO agents (id, email, display_name, role, password_hash, external_id) VALUES ($1, $2, $3, $4, $5, $6)', [id, agent.email, agent.displayName, agent.role, agent.passwordHash, agent.externalId]);
      if (agent.teams.length > 0) await client.query('INSERT INTO agent_teams (agent_id, team_id) SELECT $1, unnest($2::text[])', [id, agent.teams]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      const { code, constraint, detail } = error as { code?: string; constraint?: string; detail?: string };
      if (code === '23505') throw new AgentExists(constraint === 'agents_external_id_key' ? 'externalId' : 'email');
      if (code === '23503') throw new UnknownTeam(/\(team_id\)=\(([^)]*)\)/.exec(detail ?? '')?.[1] ?? agent.teams.join(', '));
      throw error;
    } finally {
      client.release();
    }
    return (await this.byId(id))!;
  }

  async byId(id: string): Promise<Agent | null> {
    const { rows } = await this.pool.query<AgentRow>(`${SELECT_AGENT} WHERE a.id = $1 GROUP BY a.id`, [id]);
    return rows[0] ? agentOf(rows[0]) : null;
  }

  /** The agent with this (normalised) email and its password hash, enabled or not. */
  async withPassword(email: string): Promise<{ agent: Agent; passwordHash: string | null } | null> {
    const { rows } = await this.pool.query<AgentRow>(`${SELECT_AGENT} WHERE a.email = $1 GROUP BY a.id`, [email]);
    return rows[0] ? { agent: agentOf(rows[0]), passwordHash: rows[0].password_hash ?? null } : null;
  }

  /** The agent a launch link names: by the CRM's external id when given, else by email. */
  async named(by: { externalId: string | null; email: string | null }): Promise<Agent | null> {
    const [column, value] = by.externalId !== null ? ['a.external_id', by.externalId] : ['a.email', by.email];
    if (value === null) return null;
    const { rows } = await this.pool.query<AgentRow>(`${SELECT_AGENT} WHERE ${column} = $1 GROUP BY a.id`, [value]);
    return rows[0] ? agentOf(rows[0]) : null;
  }

  async list(): Promise<Agent[]> {
    const { rows } = await this.pool.query<AgentRow>(`${SELECT_AGENT} GROUP BY a.id ORDER BY a.display_name, a.id`);
    return rows.map(agentOf);
  }

  async setPassword(id: string, passwordHash: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('UPDATE agents SET password_hash = $2 WHERE id = $1', [id, passwordHash]);
    return rowCount === 1;
  }

  /** The agent's password hash (null: it has none); undefined when there is no such agent. */
  async passwordHashOf(id: string): Promise<string | null | undefined> {
    const { rows } = await this.pool.query<{ password_hash: string | null }>('SELECT password_hash FROM agents WHERE id = $1', [id]);
    return rows[0]?.password_hash;
  }

  /**
   * Applies an admin's changes in the caller's transaction; false when there is no such agent.
   * A demotion or deactivation locks the active admins' rows first, so two admins demoting or
   * deactivating each other at once cannot both pass the last-admin check.
   */
  async update(client: PoolClient, id: string, changes: AgentChanges): Promise<boolean> {
    const losesAdmin = (changes.role !== undefined && changes.role !== 'admin') || changes.disabled === true;
    const admins = losesAdmin ? (await client.query<{ id: string }>("SELECT id FROM agents WHERE role = 'admin' AND disabled_at IS NULL ORDER BY id FOR UPDATE")).rows : [];
    const { rows } = await client.query<{ id: string }>('SELECT id FROM agents WHERE id = $1 FOR UPDATE', [id]);
    if (rows.length === 0) return false;
    if (admins.length === 1 && admins[0]!.id === id) throw new LastActiveAdmin();
    await client.query(
      `UPDATE agents SET display_name = coalesce($2, display_name), role = coalesce($3, role),
         disabled_at = CASE WHEN $4::boolean IS NULL THEN disabled_at WHEN $4 THEN coalesce(disabled_at, now()) ELSE NULL END
       WHERE id = $1`,
      [id, changes.displayName ?? null, changes.role ?? null, changes.disabled ?? null],
    );
    if (changes.teams !== undefined) await this.replaceTeams(client, id, changes.teams);
    return true;
  }

  private async replaceTeams(client: PoolClient, id: string, teams: string[]): Promise<void> {
    await client.query('DELETE FROM agent_teams WHERE agent_id = $1', [id]);
    if (teams.length === 0) return;
    const known = await client.query<{ id: string }>('SELECT id FROM teams WHERE id = ANY($1::text[])', [teams]);
    const unknown = teams.filter((team) => !known.rows.some((row) => row.id === team));
    if (unknown.length > 0) throw new UnknownTeam(unknown.join(', '));
    await client.query('INSERT INTO agent_teams (agent_id, team_id) SELECT $1, unnest($2::text[])', [id, teams]);
  }

  /** Creates a team, or renames it when it exists. */
  async saveTeam(id: string, name: string): Promise<Team> {
    await this.pool.query('INSERT INTO teams (id, name) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET name = excluded.name', [id, name]);
    return (await this.teams()).find((team) => team.id === id)!;
  }

  async teams(): Promise<Team[]> {
    const { rows } = await this.pool.query<{ id: string; name: string; agent_ids: string[] }>(
      `SELECT t.id, t.name, coalesce(array_agg(at.agent_id ORDER BY at.agent_id) FILTER (WHERE at.agent_id IS NOT NULL), '{}') AS agent_ids
       FROM teams t LEFT JOIN agent_teams at ON at.team_id = t.id GROUP BY t.id ORDER BY t.name, t.id`,
    );
    return rows.map((row) => ({ id: row.id, name: row.name, agentIds: row.agent_ids }));
  }
}
