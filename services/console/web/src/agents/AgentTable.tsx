import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { TONE } from '../colors';
import { ROLE_LABEL, type Agent, type Team } from './model';

/** Every agent: name, email, role, teams and whether it is active, with Edit and Deactivate / Reactivate. */
export function AgentTable({ agents, teams, busy, onEdit, onDeactivate, onReactivate }: {
  agents: Agent[];
  teams: Team[];
  busy: string | null;
  onEdit: (agent: Agent) => void;
  onDeactivate: (agent: Agent) => void;
  onReactivate: (agent: Agent) => void;
}) {
  const teamName = (id: string) => teams.find((team) => team.id === id)?.name ?? id;
  return (
    <Table.ScrollContainer minWidth={720} type="native">
      <Table aria-label="Agents" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Email</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Teams</Table.Th>
            <Table.Th>Active</Table.Th>
            <Table.Th>Changes</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {agents.map((agent) => (
            <Table.Tr key={agent.id} data-testid="agent-row">
              <Table.Td>{agent.displayName}</Table.Td>
              <Table.Td>{agent.email}</Table.Td>
              <Table.Td>{ROLE_LABEL[agent.role]}</Table.Td>
              <Table.Td>{agent.teams.length ? agent.teams.map(teamName).join(', ') : <Text span c="dimmed" size="sm">None</Text>}</Table.Td>
              <Table.Td>
                <Badge color={agent.disabled ? TONE.neutral : TONE.good}>{agent.disabled ? 'Deactivated' : 'Active'}</Badge>
              </Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Button size="xs" variant="outline" onClick={() => onEdit(agent)} aria-label={`Edit ${agent.displayName}`}>
                    Edit
                  </Button>
                  {agent.disabled ? (
                    <Button size="xs" variant="outline" loading={busy === `reactivate-${agent.id}`} onClick={() => onReactivate(agent)} aria-label={`Reactivate ${agent.displayName}`}>
                      Reactivate
                    </Button>
                  ) : (
                    <Button size="xs" variant="outline" color={TONE.bad} onClick={() => onDeactivate(agent)} aria-label={`Deactivate ${agent.displayName}`}>
                      Deactivate
                    </Button>
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
