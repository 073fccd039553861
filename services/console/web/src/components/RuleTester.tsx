import { useState } from 'react';
import { Alert, Button, Fieldset, Group, Select, Text, TextInput, Textarea } from '@mantine/core';
import { ApiError } from '../api';
import { ok, ticketing, type TicketingSchemas } from '../client';

type Kind = TicketingSchemas['SocialEventKind'];
type Outcome = Awaited<ReturnType<typeof testRoute>>;

const testRoute = (pageId: string, body: { kind: Kind; text: string; sender: string; lang: string }) =>
  ok(ticketing.POST('/v1/partner-configs/{pageId}/route-test', { params: { path: { pageId } }, body }));

/** Pastes a message and shows which saved rule, queue and folder it would take (ticketing's route-test). */
export function RuleTester({ pageId }: { pageId: string }) {
  const [text, setText] = useState('');
  const [sender, setSender] = useState('@ana');
  const [kind, setKind] = useState<string | null>('dm_received');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [problem, setProblem] = useState<{ message: string } | null>(null);
  const test = async () => {
    setOutcome(null);
    setProblem(null);
    try {
      setOutcome(await testRoute(pageId, { kind: (kind ?? 'dm_received') as Kind, text, sender, lang: 'en' }));
    } catch (caught) {
      const error = caught instanceof ApiError ? caught : new ApiError(0, 'error', 'the test failed');
      setProblem({ message: error.message });
    }
  };
  return (
    <Fieldset legend="Rule tester (uses the saved configuration)">
      <Group grow align="start">
        <Select label="Kind" data={['dm_received', 'mention', 'reply_to_account', 'quote_of_account']} value={kind} onChange={setKind} />
        <TextInput label="Sender" value={sender} onChange={(e) => setSender(e.currentTarget.value)} />
      </Group>
      <Textarea label="Message" value={text} onChange={(e) => setText(e.currentTarget.value)} mt="xs" />
      <Button mt="sm" variant="outline" onClick={() => void test()}>
        Test routing
      </Button>
      {outcome && (
        <Text mt="sm" data-testid="route-test-result">
          {outcome.rule ? `Rule "${outcome.rule}"` : 'No rule matches (the default)'} → queue {outcome.queue}, folder {outcome.folder}
        </Text>
      )}
      {problem && (
        <Alert mt="sm" color="red" role="status" title="Test failed" data-testid="route-test-problem">
          {problem.message}
        </Alert>
      )}
    </Fieldset>
  );
}
