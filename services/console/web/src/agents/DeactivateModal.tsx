import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { TONE } from '../colors';
import { auth, ok } from '../client';
import { sentence, type Agent } from './model';
import { useOnce } from './useOnce';

/** The confirmation before an agent is deactivated: it says what happens (no sign-in, its sessions end). */
export function DeactivateModal({ agent, onClose, onDone }: { agent: Agent; onClose: () => void; onDone: () => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  const { busy, run } = useOnce();
  const deactivate = () =>
    void run('deactivate', async () => {
      try {
        await ok(auth.PATCH('/v1/agents/{agentId}', { params: { path: { agentId: agent.id } }, body: { disabled: true } }));
        onDone();
      } catch (error) {
        setProblem(error instanceof Error ? sentence(error.message) : 'The agent could not be deactivated; try again.');
      }
    });
  return (
    <Modal opened onClose={onClose} title={`Deactivate ${agent.displayName}?`} closeButtonProps={{ 'aria-label': 'Close without deactivating' }}>
      <Stack gap="sm">
        <Text>
          {agent.displayName} ({agent.email}) will be signed out at once and cannot sign in until reactivated. Their tickets and history stay as they are.
        </Text>
        {problem && <Alert color="red" role="alert">{problem}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Keep active
          </Button>
          <Button color={TONE.bad} onClick={deactivate} loading={busy === 'deactivate'}>
            Deactivate
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
