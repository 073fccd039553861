import type { Router } from 'express';
import { requireScope } from '@crm/access';
import type { AgentAdmin } from '../operations/agents';
import { bodyOf } from './params';

/**
 * Agents and teams: whoever may read tickets may list them (the console's assignee and team
 * pickers); only an admin creates agents and teams. Never a password or its hash in an answer.
 */
export function agentRoutes(router: Router, agents: AgentAdmin): void {
  router.get('/v1/agents', requireScope('tickets:read'), async (_req, res) => {
    res.json({ items: await agents.list() });
  });
  router.post('/v1/agents', requireScope('admin'), async (req, res) => {
    res.status(201).json(await agents.create(bodyOf(req) as Record<string, unknown>));
  });
  router.get('/v1/teams', requireScope('tickets:read'), async (_req, res) => {
    res.json({ items: await agents.teams() });
  });
  router.put('/v1/teams/:teamId', requireScope('admin'), async (req, res) => {
    const { name } = bodyOf(req) as { name: string };
    res.json(await agents.saveTeam(String(req.params.teamId), name));
  });
}
