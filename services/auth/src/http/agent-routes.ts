import type { Router } from 'express';
import { principalOf, requireScope } from '@crm/access';
import type { AgentChangesService } from '../operations/agent-changes';
import type { AgentAdmin } from '../operations/agents';
import { bodyOf } from './params';

/**
 * Agents and teams: whoever may read tickets may list them (the console's assignee and team
 * pickers); only an admin creates and changes agents and teams and resets a password; an agent
 * signed in with its password changes its own. Never a password or its hash in an answer.
 */
export function agentRoutes(router: Router, agents: AgentAdmin, changes: AgentChangesService): void {
  router.get('/v1/agents', requireScope('tickets:read'), async (_req, res) => {
    res.json({ items: await agents.list() });
  });
  router.post('/v1/agents', requireScope('admin'), async (req, res) => {
    res.status(201).json(await agents.create(bodyOf(req) as Record<string, unknown>));
  });
  router.patch('/v1/agents/:agentId', requireScope('admin'), async (req, res) => {
    res.json(await changes.update(String(req.params.agentId), bodyOf(req) as Record<string, unknown>));
  });
  router.put('/v1/agents/:agentId/password', requireScope('admin'), async (req, res) => {
    await changes.resetPassword(String(req.params.agentId), (bodyOf(req) as { password: unknown }).password);
    res.status(204).end();
  });
  router.put('/v1/me/password', async (req, res) => {
    const { currentPassword, password } = bodyOf(req) as { currentPassword: unknown; password: unknown };
    await changes.changeOwnPassword(principalOf(req).id, currentPassword, password);
    res.status(204).end();
  });
  router.get('/v1/teams', requireScope('tickets:read'), async (_req, res) => {
    res.json({ items: await agents.teams() });
  });
  router.put('/v1/teams/:teamId', requireScope('admin'), async (req, res) => {
    const { name } = bodyOf(req) as { name: string };
    res.json(await agents.saveTeam(String(req.params.teamId), name));
  });
}
