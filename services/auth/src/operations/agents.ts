import type { Logger } from '@crm/logging';
import type { Agent, AgentStore, Team } from '../adapters/agents';
import { hashPassword } from '../adapters/passwords';
import { agentSpecProblems, isTeamId, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../domain/agents';

/** What an admin asked for does not hold together; `problems` names each field in words. */
export class InvalidAgent extends Error {
  override name = 'InvalidAgent';
  constructor(readonly problems: Record<string, string>) {
    super(Object.entries(problems).map(([field, problem]) => `${field}: ${problem}`).join('; '));
  }
}

/** Agents and teams as an admin keeps them (the API and the CLI share these use cases). */
export class AgentAdmin {
  constructor(private readonly deps: { agents: AgentStore; logger: Logger }) {}

  async create(input: Record<string, unknown>): Promise<Agent> {
    const { problems, spec } = agentSpecProblems(input);
    if (!spec) throw new InvalidAgent(problems);
    const passwordHash = spec.password === null ? null : await hashPassword(spec.password);
    const agent = await this.deps.agents.create({ ...spec, passwordHash });
    this.deps.logger.info('agent created', { agentId: agent.id, role: agent.role });
    return agent;
  }

  async setPassword(agentId: string, password: string): Promise<boolean> {
    if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) throw new InvalidAgent({ password: `choose a password of ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters` });
    return this.deps.agents.setPassword(agentId, await hashPassword(password));
  }

  async saveTeam(id: string, name: string): Promise<Team> {
    const problems: Record<string, string> = {};
    if (!isTeamId(id)) problems.id = 'a team id is lower-case letters, digits and -, up to 63 characters';
    if (name.trim().length < 1 || name.trim().length > 200) problems.name = 'enter the team name (1 to 200 characters)';
    if (Object.keys(problems).length > 0) throw new InvalidAgent(problems);
    return this.deps.agents.saveTeam(id, name.trim());
  }

  list(): Promise<Agent[]> {
    return this.deps.agents.list();
  }

  teams(): Promise<Team[]> {
    return this.deps.agents.teams();
  }
}
