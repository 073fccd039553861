import { useState } from 'react';
import { Alert, Button, Checkbox, Group, NativeSelect, PasswordInput, Paper, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { auth, ok } from '../client';
import { refusalOf, ROLE_CHOICES, ROLE_HELP, type Agent, type Role, type Team } from './model';
import { useOnce } from './useOnce';

const EMPTY = { email: '', displayName: '', role: 'agent' as Role, teams: [] as string[], password: '' };

/** A new agent: email, name, role, teams and a first password; the API's refusals beside their fields. */
export function CreateAgentForm({ teams, onCreated }: { teams: Team[]; onCreated: (agent: Agent) => void }) {
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [summary, setSummary] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const { busy, run } = useOnce();
  const set = (change: Partial<typeof EMPTY>) => setForm((current) => ({ ...current, ...change }));
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    void run('create', async () => {
      setSummary(null);
      setCreated(null);
      try {
        const body = { email: form.email, displayName: form.displayName, role: form.role, teams: form.teams, ...(form.password ? { password: form.password } : {}) };
        const agent = await ok(auth.POST('/v1/agents', { body }));
        setErrors({});
        setForm(EMPTY);
        setCreated(`${agent.displayName} can now sign in with ${agent.email}.`);
        onCreated(agent);
      } catch (error) {
        const refusal = refusalOf(error, 'The agent could not be created; try again.');
        setErrors(refusal.fields);
        setSummary(refusal.summary);
      }
    });
  };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="create-agent-title">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={3} id="create-agent-title" size="h4">
            Add an agent
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Email" type="email" autoComplete="off" value={form.email} onChange={(e) => set({ email: e.currentTarget.value })} error={errors['/email']} />
            <TextInput label="Name" description="What others see on tickets" value={form.displayName} onChange={(e) => set({ displayName: e.currentTarget.value })} error={errors['/displayName']} />
            <NativeSelect label="Role" description={ROLE_HELP} data={ROLE_CHOICES} value={form.role} onChange={(e) => set({ role: e.currentTarget.value as Role })} error={errors['/role']} />
            <PasswordInput label="First password" description="12 to 256 characters; the agent can change it" autoComplete="new-password" value={form.password} onChange={(e) => set({ password: e.currentTarget.value })} error={errors['/password']} />
          </SimpleGrid>
          <Checkbox.Group label="Teams" value={form.teams} onChange={(value) => set({ teams: value })} error={errors['/teams']}>
            <Group gap="md" mt={4}>
              {teams.map((team) => (
                <Checkbox key={team.id} value={team.id} label={team.name} />
              ))}
            </Group>
          </Checkbox.Group>
          {summary && <Alert color="red" role="alert">{summary}</Alert>}
          {created && <Alert color="green" role="status">{created}</Alert>}
          <Group>
            <Button type="submit" loading={busy === 'create'}>
              Add agent
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
