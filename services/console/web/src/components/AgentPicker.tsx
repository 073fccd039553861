import { Select } from '@mantine/core';
import { useAgents } from '../agents';

/**
 * The assignee: one of the agents (auth's `GET /v1/agents`), by name; its value is the agent's
 * id, what ticketing keeps as `assignee`. A value no agent has (set before agents existed, or by
 * the CRM) stays shown as it is.
 */
export function AgentPicker({ id, value, onChange, label = 'Assignee' }: { id?: string; value: string; onChange: (agentId: string) => void; label?: string }) {
  const agents = useAgents();
  const data = agents.filter((agent) => !agent.disabled || agent.id === value).map((agent) => ({ value: agent.id, label: agent.displayName }));
  if (value && !data.some((option) => option.value === value)) data.push({ value, label: value });
  return <Select id={id} label={label} data={data} value={value || null} onChange={(picked) => onChange(picked ?? '')} searchable clearable placeholder="Unassigned" nothingFoundMessage="No agent by that name" data-testid="assignee-picker" />;
}
