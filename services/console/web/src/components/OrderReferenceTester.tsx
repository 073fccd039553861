import { useState } from 'react';
import { Alert, Badge, Button, Fieldset, Group, List, Text, Textarea } from '@mantine/core';
import { ApiError } from '../api';
import { ok, ticketing } from '../client';
import { TONE } from '../colors';
import { NO_REFERENCE_WORDS, referenceMatchWords, type ReferenceMatch } from '../orders';

const findReferences = (pageId: string, text: string) => ok(ticketing.POST('/v1/partner-configs/{pageId}/order-reference-test', { params: { path: { pageId } }, body: { text } }));

const EXISTS_BADGE = (exists: boolean | null) =>
  exists === true ? { label: 'Task found', color: TONE.good } : exists === false ? { label: 'No such task', color: TONE.bad } : { label: 'Not checked', color: TONE.warn };

function Match({ match, clientId }: { match: ReferenceMatch; clientId: string | null }) {
  const badge = EXISTS_BADGE(match.exists);
  return (
    <List.Item data-testid="reference-match" data-exists={String(match.exists)}>
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
          “{match.reference}” → task {match.taskId}
        </Text>
        <Badge color={badge.color} size="sm">
          {badge.label}
        </Badge>
      </Group>
      <Text size="sm">{referenceMatchWords(match, clientId)}</Text>
    </List.Item>
  );
}

/** Pastes a message and shows each order reference the saved configuration finds in it, its task id and whether tracking knows the task. */
export function OrderReferenceTester({ pageId, clientId }: { pageId: string; clientId: string | null }) {
  const [text, setText] = useState('');
  const [matches, setMatches] = useState<ReferenceMatch[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const test = async () => {
    if (busy) return;
    setBusy(true);
    setMatches(null);
    setProblem(null);
    try {
      setMatches((await findReferences(pageId, text)).matches);
    } catch (caught) {
      setProblem(caught instanceof ApiError ? caught.message : 'the test could not run; try again');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Fieldset legend="Order tester (uses the saved configuration)" data-testid="order-reference-tester">
      <Textarea label="Customer text to look for orders in" autosize minRows={2} value={text} onChange={(e) => setText(e.currentTarget.value)} />
      <Button mt="sm" variant="outline" onClick={() => void test()} loading={busy} disabled={!text.trim()}>
        Find orders
      </Button>
      {matches && matches.length === 0 && (
        <Text mt="sm" size="sm" data-testid="reference-none">
          {NO_REFERENCE_WORDS}
        </Text>
      )}
      {matches && matches.length > 0 && (
        <List mt="sm" spacing="xs" listStyleType="none" aria-label="Order references found">
          {matches.map((match, index) => (
            <Match key={`${match.reference}-${index}`} match={match} clientId={clientId} />
          ))}
        </List>
      )}
      {problem && (
        <Alert mt="sm" color="red" role="status" title="Test failed" data-testid="reference-test-problem">
          {problem}
        </Alert>
      )}
    </Fieldset>
  );
}
