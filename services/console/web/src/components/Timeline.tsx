import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { TONE } from '../colors';
import { when } from '../format';
import type { Activity, Ticket } from '../types';

const KIND_LABEL: Record<string, string> = {
  dm_received: 'DM received',
  dm_sent: 'DM sent',
  mention: 'Mention',
  reply_to_account: 'Public reply',
  reply_by_account: 'Our public reply',
  quote_of_account: 'Quote',
  like_of_account: 'Reaction: like',
  repost_of_account: 'Reaction: repost',
  note: 'Note',
  status_changed: 'Status change',
  merged: 'Merge',
};

const STATUS_COLOR: Record<string, string> = { pending: TONE.neutral, sent: TONE.good, failed: TONE.bad, unknown: TONE.warn };

function Entry({ activity }: { activity: Activity }) {
  return (
    <Paper withBorder p="sm" data-testid="activity" data-kind={activity.kind} data-status={activity.status ?? ''} bg={activity.direction === 'outbound' ? 'blue.0' : undefined}>
      <Group justify="space-between">
        <Text size="sm" fw={600}>
          {KIND_LABEL[activity.kind] ?? activity.kind.replace(/_/g, ' ')}
          {activity.author?.screenName ? ` · @${activity.author.screenName}` : ''}
          {activity.byName ? ` · by ${activity.byName}` : ''}
        </Text>
        <Group gap="xs">
          {activity.status && (
            <Badge color={STATUS_COLOR[activity.status] ?? TONE.neutral} data-testid="reply-status">
              {activity.status}
            </Badge>
          )}
          <Text size="xs">{when(activity.occurredAt)}</Text>
        </Group>
      </Group>
      <Text style={{ whiteSpace: 'pre-wrap' }} td={activity.deleted ? 'line-through' : undefined}>
        {activity.text ?? ''}
      </Text>
      {activity.failure && (
        <Text size="sm" c="red.9" data-testid="reply-failure">
          Not sent: {activity.failure.message} ({activity.failure.code})
        </Text>
      )}
    </Paper>
  );
}

/** Typing and read state of the DM conversation (current state, not history). */
export function ConversationState({ ticket }: { ticket: Ticket }) {
  const state = ticket.conversationState;
  if (!state) return null;
  const typingRecently = state.typing.contactAt && Date.now() - Date.parse(state.typing.contactAt) < 10_000;
  return (
    <Group gap="md" data-testid="conversation-state">
      {typingRecently && <Badge color={TONE.info}>@{ticket.contact.screenName} is typing…</Badge>}
      {state.read.contact?.at && <Text size="xs">Read by the customer {when(state.read.contact.at)}</Text>}
    </Group>
  );
}

export function Timeline({ activities }: { activities: Activity[] }) {
  return (
    <Stack gap="xs" aria-label="Timeline" role="list">
      {activities.map((activity) => (
        <div role="listitem" key={activity.id}>
          <Entry activity={activity} />
        </div>
      ))}
    </Stack>
  );
}
