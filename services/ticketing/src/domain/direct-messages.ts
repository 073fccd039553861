import type { DmRead, DmReceived, DmSent, DmTyping, SocialUser } from './social-events';
import { InvalidActivity } from './errors';
import { epochMillis, isRecord, optionalPlatformId, optionalRecord, platformId, requiredArray, requiredRecord, requiredString } from './platform-values';
import { mediaOf, userFromMap } from './users';

/**
 * A user of a DM delivery: from the top-level `users` map, or, as in the platform's own
 * published example, from a user object misplaced inside `apps`.
 */
function dmUser(delivery: Record<string, unknown>, userId: string): SocialUser {
  const fromUsers = userFromMap(delivery.users, userId);
  if (fromUsers.raw) return fromUsers;
  const misplaced = isRecord(delivery.apps) ? delivery.apps[userId] : undefined;
  return isRecord(misplaced) && 'screen_name' in misplaced ? userFromMap(delivery.apps, userId) : fromUsers;
}

/** What the timeline shows for an encrypted DM: recorded, never dropped, and its text is for the app alone. */
export const ENCRYPTED_DM_NOTICE = 'This message is end-to-end encrypted (XChat): the CRM cannot read it. Read it in the app.';

/**
 * Turns the events of a `direct_message_events` delivery into DM received / DM sent events.
 * A DM is sent by the account when its sender is the account: `source_app_id` alone does not
 * say so, since a customer's DM carries the app the customer wrote it with.
 * Throws InvalidActivity naming the first missing or garbled field, or an unknown event type.
 */
function chatMessageId(value: unknown, field: string): string {
  const id = requiredString(value, field);
  if (!/^[A-Za-z0-9-]{1,64}$/.test(id)) throw new InvalidActivity(`${field} must be a message id (letters, digits and '-'), got '${id.slice(0, 64)}'`);
  return id;
}

export function interpretDirectMessages(accountId: string, delivery: Record<string, unknown>): (DmReceived | DmSent)[] {
  return requiredArray(delivery.direct_message_events, 'direct_message_events').map((item, index) => {
    const at = `direct_message_events[${index}]`;
    const event = requiredRecord(item, at);
    const type = requiredString(event.type, `${at}.type`);
    if (type !== 'message_create') throw new InvalidActivity(`${at}.type '${type}' is not a DM event type ticketing knows (message_create)`);
    const messageCreate = requiredRecord(event.message_create, `${at}.message_create`);
    const messageData = requiredRecord(messageCreate.message_data, `${at}.message_create.message_data`);
    const encrypted = messageData.encrypted === true;
    // An encrypted message (XChat) has a uuid for its id; a legacy DM, a platform id.
    const platformEventId = encrypted ? chatMessageId(event.id, `${at}.id`) : platformId(event.id, `${at}.id`);
    const occurredAt = epochMillis(event.created_timestamp, `${at}.created_timestamp`).toISOString();
    const senderId = platformId(messageCreate.sender_id, `${at}.message_create.sender_id`);
    const target = requiredRecord(messageCreate.target, `${at}.message_create.target`);
    const recipientId = platformId(target.recipient_id, `${at}.message_create.target.recipient_id`);
    const text = encrypted ? ENCRYPTED_DM_NOTICE : requiredString(messageData.text, `${at}.message_create.message_data.text`);
    const attachment = optionalRecord(messageData.attachment, `${at}.message_create.message_data.attachment`);
    const attachments = attachment?.media ? mediaOf([attachment.media]) : [];
    const sourceAppId = optionalPlatformId(messageCreate.source_app_id, `${at}.message_create.source_app_id`);
    const common = { accountId, platformEventId, occurredAt, senderId, recipientId, text, attachments, sourceAppId, raw: event, ...(encrypted ? { encrypted } : {}) };

    if (senderId === accountId) return { ...common, kind: 'dm_sent' as const, counterpart: dmUser(delivery, recipientId) };
    if (recipientId === accountId) return { ...common, kind: 'dm_received' as const, counterpart: dmUser(delivery, senderId) };
    throw new InvalidActivity(`${at}.message_create.target.recipient_id: neither the sender (${senderId}) nor the recipient (${recipientId}) is the account ${accountId}`);
  });
}

/**
 * Typing indicators and read receipts. They are state, not history, and an indicator between
 * two other users (the platform's published examples are such) concerns no conversation of
 * the account: it comes back in `ignored`.
 */
export function interpretIndicators(
  accountId: string,
  delivery: Record<string, unknown>,
  kind: 'direct_message_indicate_typing_events' | 'direct_message_mark_read_events',
): { events: (DmTyping | DmRead)[]; ignored: { reason: string }[] } {
  const events: (DmTyping | DmRead)[] = [];
  const ignored: { reason: string }[] = [];
  requiredArray(delivery[kind], kind).forEach((item, index) => {
    const at = `${kind}[${index}]`;
    const event = requiredRecord(item, at);
    const occurred = epochMillis(event.created_timestamp, `${at}.created_timestamp`);
    const senderId = platformId(event.sender_id, `${at}.sender_id`);
    const recipientId = platformId(requiredRecord(event.target, `${at}.target`).recipient_id, `${at}.target.recipient_id`);
    const lastReadEventId = kind === 'direct_message_mark_read_events' ? platformId(event.last_read_event_id, `${at}.last_read_event_id`) : null;
    if (senderId !== accountId && recipientId !== accountId) {
      ignored.push({ reason: `${at}: neither the sender (${senderId}) nor the recipient (${recipientId}) is the account ${accountId}` });
      return;
    }
    const byAccount = senderId === accountId;
    const counterpartId = byAccount ? recipientId : senderId;
    const common = { accountId, occurredAt: occurred.toISOString(), senderId, recipientId, counterpartId, byAccount, raw: event };
    if (lastReadEventId === null) {
      events.push({ ...common, kind: 'dm_typing', platformEventId: `typing:${senderId}:${recipientId}:${occurred.getTime()}` });
    } else {
      events.push({ ...common, kind: 'dm_read', platformEventId: `read:${senderId}:${recipientId}:${lastReadEventId}`, lastReadEventId });
    }
  });
  return { events, ignored };
}
