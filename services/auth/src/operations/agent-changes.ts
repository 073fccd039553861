import type { Logger } from '@crm/logging';
import type { Agent, AgentStore } from '../adapters/agents';
import type { AuthEvents } from '../adapters/events';
import { hashPassword, verifyPassword } from '../adapters/passwords';
import type { SessionStore } from '../adapters/sessions';
import { agentChangeProblems, passwordProblem } from '../domain/agents';
import { InvalidAgent } from './agents';

/** The agent named does not exist. */
export class AgentNotFound extends Error {
  override name = 'AgentNotFound';
  constructor() {
    super('there is no such agent; reload the list of agents');
  }
}

/** The current password given with a change of one's own password is not right. */
export class WrongCurrentPassword extends Error {
  override name = 'WrongCurrentPassword';
  constructor() {
    super('the current password is not right; type it again');
  }
}

/** Only an agent signed in with its own password has a password to change. */
export class NotAnAgent extends Error {
  override name = 'NotAnAgent';
  constructor() {
    super('only an agent signed in with an email and password can change a password here');
  }
}

/**
 * What an admin changes of an agent (name, role, teams, active) and the passwords. Each use
 * case owns its transaction; a deactivated agent's sessions end in it and their end is
 * announced on access.events, so every service forgets them at once. A changed role is
 * announced under the agent's id: services forget their cached checks and read it afresh.
 */
export class AgentChangesService {
  constructor(private readonly deps: { agents: AgentStore; sessions: SessionStore; events: AuthEvents; logger: Logger }) {}

  async update(agentId: string, input: Record<string, unknown>): Promise<Agent> {
    const { problems, changes } = agentChangeProblems(input);
    if (!changes) throw new InvalidAgent(problems);
    const ended = await this.deps.events.storeAndAnnounce(async (client) => {
      if (!(await this.deps.agents.update(client, agentId, changes))) throw new AgentNotFound();
      const sessionIds = changes.disabled === true ? await this.deps.sessions.endAllOfAgent(client, agentId) : [];
      const revoked = changes.role !== undefined ? [...sessionIds, agentId] : sessionIds;
      for (const id of revoked) await this.deps.events.credentialRevoked(client, { id });
      return sessionIds;
    });
    this.deps.logger.info('agent changed', { agentId, fields: Object.keys(changes), sessionsEnded: ended.length });
    return (await this.deps.agents.byId(agentId))!;
  }

  /** An admin sets a new password for the agent. */
  async resetPassword(agentId: string, password: unknown): Promise<void> {
    const problem = passwordProblem(password);
    if (problem) throw new InvalidAgent({ password: problem });
    if (!(await this.deps.agents.setPassword(agentId, await hashPassword(password as string)))) throw new AgentNotFound();
    this.deps.logger.info('agent password reset', { agentId });
  }

  /** The agent changes its own password, proving the current one. */
  async changeOwnPassword(agentId: string, currentPassword: unknown, password: unknown): Promise<void> {
    const stored = await this.deps.agents.passwordHashOf(agentId);
    if (stored === undefined) throw new NotAnAgent();
    const matches = stored !== null && typeof currentPassword === 'string' && (await verifyPassword(currentPassword, stored));
    if (!matches) throw new WrongCurrentPassword();
    const problem = passwordProblem(password);
    if (problem) throw new InvalidAgent({ password: problem });
    await this.deps.agents.setPassword(agentId, await hashPassword(password as string));
    this.deps.logger.info('agent changed its password', { agentId });
  }
}
