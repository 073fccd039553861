import type { MovedActivity } from '../../adapters/db/activities';
import { postConversationKey } from '../../domain/events';
import { dispositionOf } from '../../domain/partner-config';
import type { Mention, Post, PostDeleted, QuoteOfAccount, ReplyToAccount, SocialEvent } from '../../domain/social-events';
import { isActive, placeInbound } from '../../domain/tickets';
import type { Outcome, Recorder } from './recorder';

/**
 * A customer's public post. A reply joins the ticket that holds its parent (reply chains
 * beat the policy); otherwise the policy decides between a new ticket, the contact's
 * timeline and nothing. A mention by a user the account has blocked never opens a ticket.
 */
export async function recordInboundPost(recorder: Recorder, event: Mention | ReplyToAccount | QuoteOfAccount): Promise<Outcome> {
  const { tx, partner } = recorder;
  const parentId = event.post.inReplyToPostId;
  const holder = parentId ? await tx.tickets.holdingPost(event.accountId, parentId) : null;
  const placement = placeInbound(holder, new Date(event.occurredAt), partner.policy.reopenWindowMinutes);
  const blocked = event.kind === 'mention' && event.authorBlockedByAccount === true;
  const disposition = blocked ? 'timeline' : dispositionOf(event.kind, partner);
  if (placement === 'new' && disposition === 'ignore') return 'ignored';

  const recorded = await recorder.record(recorder.postActivity(event, 'inbound', parentId));
  if (!('id' in recorded)) return recorded.outcome;
  const activityId = recorded.id;
  if (holder && placement !== 'new') {
    await recorder.join(holder, activityId, placement, { text: event.post.text });
    await adoptThread(recorder, { accountId: event.accountId, ticketId: holder.id, postId: event.post.id }, { ticketActive: true }); // joining left it open
    return 'appended';
  }
  if (disposition === 'timeline') return 'timeline';
  const ticketId = await recorder.open(event, activityId, {
    channel: 'public',
    conversationKey: postConversationKey(event.accountId, event.post.id),
    text: event.post.text,
    sender: event.post.author,
    lang: event.post.lang,
    // No ticket holds the parent (yet): if one comes to hold it, this ticket folds into it.
    awaitingPostId: holder ? null : parentId,
  });
  await adoptThread(recorder, { accountId: event.accountId, ticketId, postId: event.post.id }, { ticketActive: true });
  return 'opened';
}

/** The account's own post: outbound on the ticket holding what it replies to (or quotes), never a new ticket. */
export async function recordOwnPost(recorder: Recorder, event: SocialEvent & { kind: 'post_by_account' | 'reply_by_account' | 'quote_by_account'; post: Post }): Promise<Outcome> {
  const { tx } = recorder;
  const parentId = event.kind === 'quote_by_account' ? (event.post.quotedPost?.id ?? null) : event.post.inReplyToPostId;
  const recorded = await recorder.record(recorder.postActivity(event, 'outbound', parentId));
  if (!('id' in recorded)) return recorded.outcome;
  const activityId = recorded.id;
  const holder = parentId ? await tx.tickets.holdingPost(event.accountId, parentId) : null;
  if (!holder) return 'timeline';
  await recorder.appendOutbound(holder, activityId);
  await adoptThread(recorder, { accountId: event.accountId, ticketId: holder.id, postId: event.post.id }, { ticketActive: isActive(holder.status) });
  return 'appended';
}

/** A deleted post: its activity is marked deleted (the record stays); a delete seen first is remembered. */
export async function recordPostDeleted({ tx }: Recorder, event: PostDeleted): Promise<Outcome> {
  const marked = await tx.activities.markPostDeleted(event.accountId, event.postId, new Date(event.occurredAt));
  return marked ? 'deleted' : 'state';
}

/**
 * Posts just placed on a ticket may be the parents of activity recorded earlier (deliveries
 * come in any order): ticketless replies join the ticket, and tickets opened by replies
 * while their parent was unknown fold into it, so the result is what in-order processing
 * gives. Customers' replies only join an active (open or pending) ticket; a ticket an
 * agent has worked on stays on its own.
 */
async function adoptThread(
  recorder: Recorder,
  { accountId, ticketId, postId: placedPostId }: { accountId: string; ticketId: string; postId: string },
  { ticketActive }: { ticketActive: boolean },
): Promise<void> {
  const { tx } = recorder;
  const queue = [placedPostId];
  let changed = false;
  let inbound = false;
  const note = (moved: MovedActivity[]) => {
    for (const activity of moved) {
      changed = true;
      inbound ||= activity.direction === 'inbound';
      if (activity.platform_event_id) queue.push(activity.platform_event_id);
    }
  };
  for (let postId = queue.shift(); postId !== undefined; postId = queue.shift()) {
    note(await tx.activities.adoptReplies(accountId, postId, ticketId, { withInbound: ticketActive }));
    for (const orphan of await tx.tickets.awaiting(accountId, postId)) {
      if (orphan.id === ticketId) continue;
      if (!ticketActive || !orphan.adoptable) {
        await tx.tickets.stopAwaiting(orphan.id);
        continue;
      }
      note(await tx.activities.moveAll(orphan.id, ticketId));
      await recorder.settle();
      await tx.tickets.delete(orphan.id);
      recorder.deletedTicket(orphan.id);
    }
  }
  if (!changed) return;
  if (inbound) await recorder.reopen(ticketId);
  recorder.changedTicket(ticketId);
}
