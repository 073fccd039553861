import { useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { auth, ok } from '../client';
import { refusalOf, type Team } from './model';
import { useOnce } from './useOnce';

/** Saves a team's name (creating the team when its id is new); the refusal's sentences by field. */
function useSaveTeam(onSaved: () => void) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [summary, setSummary] = useState<string | null>(null);
  const { busy, run } = useOnce();
  const save = (teamId: string, name: string, done?: () => void) =>
    run(`team-${teamId}`, async () => {
      try {
        await ok(auth.PUT('/v1/teams/{teamId}', { params: { path: { teamId } }, body: { name } }));
        setErrors({});
        setSummary(null);
        done?.();
        onSaved();
      } catch (error) {
        const refusal = refusalOf(error, 'The team was not saved; try again.');
        setErrors(refusal.fields);
        setSummary(refusal.summary ?? Object.values(refusal.fields).join(' '));
      }
    });
  return { busy, errors, summary, save };
}

/** One team's name, renamed in place. */
function TeamRow({ team, busy, onRename }: { team: Team; busy: boolean; onRename: (name: string) => void }) {
  const [name, setName] = useState(team.name);
  return (
    <form onSubmit={(event) => { event.preventDefault(); onRename(name); }} data-testid="team-row">
      <Group gap="xs" align="flex-end" wrap="wrap">
        <TextInput label={`Name of team ${team.id}`} value={name} onChange={(e) => setName(e.currentTarget.value)} style={{ flex: '1 1 12rem' }} />
        <Text size="sm" pb={8}>{team.agentIds.length === 1 ? '1 agent' : `${team.agentIds.length} agents`}</Text>
        <Button type="submit" variant="outline" loading={busy} disabled={name.trim() === team.name}>
          Rename
        </Button>
      </Group>
    </form>
  );
}

/** The teams: each one's name (renamed in place) and a new team by id and name. */
export function TeamsPanel({ teams, onSaved }: { teams: Team[]; onSaved: () => void }) {
  const { busy, errors, summary, save } = useSaveTeam(onSaved);
  const [draft, setDraft] = useState({ id: '', name: '' });
  const create = (event: React.FormEvent) => {
    event.preventDefault();
    void save(draft.id.trim(), draft.name, () => setDraft({ id: '', name: '' }));
  };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="teams-title">
      <Stack gap="sm">
        <Title order={3} id="teams-title" size="h4">
          Teams
        </Title>
        {teams.length === 0 && <Text>No team yet: add one below.</Text>}
        {teams.map((team) => (
          <TeamRow key={`${team.id}-${team.name}`} team={team} busy={busy === `team-${team.id}`} onRename={(name) => void save(team.id, name)} />
        ))}
        {summary && <Alert color="red" role="alert">{summary}</Alert>}
        <form onSubmit={create} noValidate>
          <Group gap="xs" align="flex-end" wrap="wrap">
            <TextInput label="New team id" description="Lower-case letters, digits and -" value={draft.id} onChange={(e) => setDraft({ ...draft, id: e.currentTarget.value })} style={{ flex: '1 1 10rem' }} />
            <TextInput label="New team name" value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })} error={errors['/name']} style={{ flex: '1 1 12rem' }} />
            <Button type="submit" loading={busy === `team-${draft.id.trim()}`} disabled={!draft.id.trim()}>
              Add team
            </Button>
          </Group>
        </form>
      </Stack>
    </Paper>
  );
}
