import { useCallback, useEffect, useState } from 'react';
import { Alert, Loader, Stack, Text, Title } from '@mantine/core';
import { auth, ok } from '../client';
import { useSession } from '../session';
import { AgentTable } from './AgentTable';
import { CreateAgentForm } from './CreateAgentForm';
import { DeactivateModal } from './DeactivateModal';
import { EditAgentModal } from './EditAgentModal';
import { loadAgentsAndTeams, sentence, type Agent, type Team } from './model';
import { TeamsPanel } from './TeamsPanel';
import { useOnce } from './useOnce';

/** The Agents page: an admin's; anyone else is told who manages agents. */
export function AgentsPage() {
  const { session } = useSession();
  if (!session?.scopes.includes('admin')) {
    return (
      <Stack>
        <Title order={2}>Agents and teams</Title>
        <Text>Only an admin manages agents and teams. Ask an admin of your console to add an agent or change one.</Text>
      </Stack>
    );
  }
  return <AgentsAdmin />;
}

function AgentsAdmin() {
  const [lists, setLists] = useState<{ agents: Agent[]; teams: Team[] } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [editing, setEditing] = useState<Agent | null>(null);
  const [deactivating, setDeactivating] = useState<Agent | null>(null);
  const { busy, run } = useOnce();
  const load = useCallback(async () => {
    try {
      setLists(await loadAgentsAndTeams());
      setProblem(null);
    } catch (error) {
      setProblem(error instanceof Error ? sentence(error.message) : 'The agents could not be read; reload the page.');
    }
  }, []);
  useEffect(() => void load(), [load]);
  const reactivate = (agent: Agent) =>
    void run(`reactivate-${agent.id}`, async () => {
      try {
        await ok(auth.PATCH('/v1/agents/{agentId}', { params: { path: { agentId: agent.id } }, body: { disabled: false } }));
        await load();
      } catch (error) {
        setProblem(error instanceof Error ? sentence(error.message) : 'The agent could not be reactivated; try again.');
      }
    });
  const closeAndLoad = () => {
    setEditing(null);
    setDeactivating(null);
    void load();
  };
  return (
    <Stack>
      <Title order={2}>Agents and teams</Title>
      {problem && <Alert color="red" role="alert">{problem}</Alert>}
      {lists === null ? (
        !problem && <Loader aria-label="Loading the agents" />
      ) : (
        <>
          <AgentTable agents={lists.agents} teams={lists.teams} busy={busy} onEdit={setEditing} onDeactivate={setDeactivating} onReactivate={reactivate} />
          <CreateAgentForm teams={lists.teams} onCreated={() => void load()} />
          <TeamsPanel teams={lists.teams} onSaved={() => void load()} />
        </>
      )}
      {editing && lists && <EditAgentModal agent={editing} teams={lists.teams} onClose={() => setEditing(null)} onSaved={closeAndLoad} />}
      {deactivating && <DeactivateModal agent={deactivating} onClose={() => setDeactivating(null)} onDone={closeAndLoad} />}
    </Stack>
  );
}
