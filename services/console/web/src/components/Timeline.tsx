import { useEffect, useState } from 'react';
import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { Link } from 'wouter';
import { TONE } from '../colors';
import { when } from '../format';
import { useAction } from '../useAction';
import { done, ok, ticketing } from '../client';
import type { Activity, TicketDetail } from '../types';
import { OrderUpdateEntry } from './OrderUpdateEntry';

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
  unmerged: 'Unmerge',
  action: 'On behalf of the account',
  evidence_snapshot: 'Tracking snapshot',
};

/** What an action on the account's behalf did, in words (ticketing records the action's name). */
const ACTION_WORDS: Record<string, string> = {
  like: 'Liked the post', unlike: 'Took the like back', repost: 'Reposted the post',
  follow: 'Followed the customer', unfollow: 'Unfollowed the customer', mute: 'Muted the customer',
  unmute: 'Unmuted the customer', block: 'Blocked the customer', unblock: 'Unblocked the customer',
};

const STATUS_COLOR: Record<string, string> = { pending: TONE.neutral, sent: TONE.good, failed: TONE.bad, unknown: TONE.warn };

/** A ticket named on the timeline by its subject and customer (not its id), read once. */
function useTicketSummary(id: string) {
  const [ticket, setTicket] = useState<TicketDetail | null>(null);
  useEffect(() => {
    let current = true;
    ok(ticketing.GET('/v1/tickets/{id}', { params: { path: { id } } }))
      .then((found) => current && setTicket(found))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [id]);
  return ticket;
}

const nameOf = (ticket: TicketDetail | null) => (ticket ? `“${ticket.subject || '(no subject)'}”${ticket.contact?.screenName ? ` from @${ticket.contact.screenName}` : ''}` : 'a ticket');

/** One ticket merged into this one: its name, a link, and Unmerge while it is still merged here. */
function MergedSource({ id, targetId, onChanged }: { id: string; targetId: string; onChanged: () => void }) {
  const source = useTicketSummary(id);
  const { problem, busy, act } = useAction(onChanged);
  const stillHere = source?.mergedInto === targetId;
  return (
    <Group gap="xs" data-testid="merged-source">
      <Anchor component={Link} href={`/tickets/${id}`} size="sm">
        {nameOf(source)}
      </Anchor>
      {stillHere && (
        <Button size="compact-xs" variant="outline" onClick={() => void act('unmerge', () => done(ticketing.POST('/v1/tickets/{id}/unmerge', { params: { path: { id: targetId } }, body: { sourceIds: [id] } })))} loading={busy === 'unmerge'} aria-label={`Unmerge ${nameOf(source)}`}>
          Unmerge
        </Button>
      )}
      {problem && <Text size="xs" c="red.9" role="alert">{problem}</Text>}
    </Group>
  );
}

function OtherEnd({ id, words }: { id: string; words: string }) {
  const other = useTicketSummary(id);
  return (
    <Text size="sm">
      {words}{' '}
      <Anchor component={Link} href={`/tickets/${id}`}>
        {nameOf(other)}
      </Anchor>
    </Text>
  );
}

const stringsIn = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);

/**
 * A merge or unmerge names its tickets: on the ticket that took them, each one (with Unmerge
 * while it is still merged here); on a ticket merged away, the one it went into or left.
 */
function MergeDetails({ activity, ticketId, onChanged }: { activity: Activity; ticketId: string; onChanged: () => void }) {
  const sources = stringsIn(activity.data?.sourceIds);
  const merged = activity.kind === 'merged';
  const other = typeof activity.data?.into === 'string' ? activity.data.into : typeof activity.data?.from === 'string' ? activity.data.from : null;
  if (sources.length) {
    const many = sources.length > 1 ? ` (${sources.length} tickets)` : '';
    return (
      <Stack gap={2}>
        <Text size="sm">
          {merged ? `Merged into this ticket${many}:` : `Taken out of this ticket${many}:`}
          {activity.data?.rule ? ` (by rule ${String(activity.data.rule)})` : ''}
        </Text>
        {sources.map((id) => (
          <MergedSource key={id} id={id} targetId={ticketId} onChanged={onChanged} />
        ))}
      </Stack>
    );
  }
  if (other) return <OtherEnd id={other} words={merged ? 'Merged into' : 'Taken out of'} />;
  return <Text style={{ whiteSpace: 'pre-wrap' }}>{activity.text ?? ''}</Text>;
}

const MEDIA_WORDS: Record<string, string> = { photo: 'Image', video: 'Video', animated_gif: 'GIF' };

/** The media a DM or post carried: what kind, and its id on the platform (the platform serves the bytes to the account only). */
function Attachments({ activity }: { activity: Activity }) {
  return (
    <Group gap="xs" data-testid="activity-attachments">
      {activity.attachments.map((media, index) => (
        <Badge key={media.mediaId ?? index} variant="outline" color={TONE.neutral} title={media.mediaId ? `media ${media.mediaId}` : undefined}>
          {`${MEDIA_WORDS[media.type] ?? media.type} attached`}
        </Badge>
      ))}
    </Group>
  );
}

function Entry({ activity, ticketId, onChanged }: { activity: Activity; ticketId: string; onChanged: () => void }) {
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
      {activity.kind === 'merged' || activity.kind === 'unmerged' ? (
        <MergeDetails activity={activity} ticketId={ticketId} onChanged={onChanged} />
      ) : (
        <Text style={{ whiteSpace: 'pre-wrap' }} td={activity.deleted ? 'line-through' : undefined}>
          {activity.kind === 'action' ? (ACTION_WORDS[activity.text ?? ''] ?? activity.text) : (activity.text ?? '')}
        </Text>
      )}
      {activity.attachments.length > 0 && <Attachments activity={activity} />}
      {activity.failure && (
        <Text size="sm" c="red.9" data-testid="reply-failure">
          Not sent: {activity.failure.message} ({activity.failure.code})
        </Text>
      )}
    </Paper>
  );
}

/** Typing and read state of the DM conversation (current state, not history). */
export function ConversationState({ ticket }: { ticket: TicketDetail }) {
  const state = ticket.conversationState;
  if (!state) return null;
  const typingRecently = state.typing.contactAt && Date.now() - Date.parse(state.typing.contactAt) < 10_000;
  return (
    <Group gap="md" data-testid="conversation-state">
      {typingRecently && <Badge color={TONE.info}>{ticket.contact?.screenName ? `@${ticket.contact.screenName}` : 'The customer'} is typing…</Badge>}
      {state.read.contact && <Text size="xs">Read by the customer {when(state.read.contact.readAt)}</Text>}
    </Group>
  );
}

/** `version` changes with the ticket (its updatedAt): merge entries read the tickets they name again. */
export function Timeline({ activities, ticketId, ticketStatus, version, onChanged }: { activities: Activity[]; ticketId: string; ticketStatus: string; version: string; onChanged: () => void }) {
  return (
    <Stack gap="xs" aria-label="Timeline" role="list">
      {activities.map((activity) => (
        <div role="listitem" key={activity.kind === 'merged' || activity.kind === 'unmerged' ? `${activity.id}@${version}` : activity.id}>
          {activity.kind === 'order_update' ? <OrderUpdateEntry activity={activity} ticketId={ticketId} ticketStatus={ticketStatus} onChanged={onChanged} /> : <Entry activity={activity} ticketId={ticketId} onChanged={onChanged} />}
        </div>
      ))}
    </Stack>
  );
}
