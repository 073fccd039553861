import { useState } from 'react';
import { Alert, Button, Checkbox, Divider, Group, Modal, NativeSelect, PasswordInput, Stack, TextInput } from '@mantine/core';
import { auth, ok } from '../client';
import { refusalOf, ROLE_CHOICES, ROLE_HELP, type Agent, type Role, type Team } from './model';
import { useOnce } from './useOnce';

/** An agent's name, role and teams, and a new password set by the admin. */
export function EditAgentModal({ agent, teams, onClose, onSaved }: { agent: Agent; teams: Team[]; onClose: () => void; onSaved: () => void }) {
  const [form, setForm] = useState({ displayName: agent.displayName, role: agent.role, teams: agent.teams });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [summary, setSummary] = useState<string | null>(null);
  const { busy, run } = useOnce();
  const save = (event: React.FormEvent) => {
    event.preventDefault();
    void run('save', async () => {
      try {
        await ok(auth.PATCH('/v1/agents/{agentId}', { params: { path: { agentId: agent.id } }, body: form }));
        onSaved();
      } catch (error) {
        const refusal = refusalOf(error, 'Not saved; try again.');
        setErrors(refusal.fields);
        setSummary(refusal.summary);
      }
    });
  };
  return (
    <Modal opened onClose={onClose} title={`Edit ${agent.displayName}`} closeButtonProps={{ 'aria-label': 'Close without saving' }}>
      <form onSubmit={save} noValidate>
        <Stack gap="sm">
          <TextInput label="Name" value={form.displayName} onChange={(e) => setForm({ ...form, displayName: e.currentTarget.value })} error={errors['/displayName']} />
          <NativeSelect label="Role" description={ROLE_HELP} data={ROLE_CHOICES} value={form.role} onChange={(e) => setForm({ ...form, role: e.currentTarget.value as Role })} error={errors['/role']} />
          <Checkbox.Group label="Teams" value={form.teams} onChange={(value) => setForm({ ...form, teams: value })} error={errors['/teams']}>
            <Group gap="md" mt={4}>
              {teams.map((team) => (
                <Checkbox key={team.id} value={team.id} label={team.name} />
              ))}
            </Group>
          </Checkbox.Group>
          {summary && <Alert color="red" role="alert">{summary}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy === 'save'}>
              Save changes
            </Button>
          </Group>
        </Stack>
      </form>
      <NewPassword agent={agent} />
    </Modal>
  );
}

/** A new password the admin sets for the agent (and tells them). */
function NewPassword({ agent }: { agent: Agent }) {
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [done, setDone] = useState(false);
  const { busy, run } = useOnce();
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    void run('password', async () => {
      try {
        await ok(auth.PUT('/v1/agents/{agentId}/password', { params: { path: { agentId: agent.id } }, body: { password } }));
        setPassword('');
        setProblem(undefined);
        setDone(true);
      } catch (error) {
        const refusal = refusalOf(error, 'The password was not set; try again.');
        setProblem(refusal.fields['/password'] ?? refusal.summary ?? undefined);
      }
    });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Divider mt="lg" />
        <PasswordInput
          label="New password"
          description="12 to 256 characters; tell the agent"
          autoComplete="new-password"
          value={password}
          onChange={(e) => {
            setPassword(e.currentTarget.value);
            setDone(false);
          }}
          error={problem}
        />
        {done && <Alert color="green" role="status">The new password is set.</Alert>}
        <Group>
          <Button type="submit" variant="outline" loading={busy === 'password'} disabled={!password}>
            Set password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
