import { InvalidActivity } from './errors';
import { dmConversationKey, type DomainEvent, type IgnoredActivity } from './events';
import { epochMillis, optionalPlatformId, platformId, requiredRecord, requiredString } from './platform-values';
import { contactProfile } from './users';

/**
 * Turns the events of a `direct_message_events` delivery into DM received / DM sent events.
 * A DM is sent by the account when its sender is the account (`source_app_id` alone does not
 * say so: a customer's DM carries the app the customer wrote it with).
 * Throws InvalidActivity naming the first missing or garbled field.
 */
export function interpretDirectMessages(
  accountId: string,
  delivery: Record<string, unknown>,
): { events: DomainEvent[]; ignored: IgnoredActivity[] } {
  const list = delivery.direct_message_events;
  if (!Array.isArray(list)) throw new InvalidActivity('direct_message_events must be an array');
  const events: DomainEvent[] = [];
  const ignored: IgnoredActivity[] = [];
  list.forEach((item: unknown, index) => {
    const at = `direct_message_events[${index}]`;
    const event = requiredRecord(item, at);
    const type = requiredString(event.type, `${at}.type`);
    if (type !== 'message_create') {
      ignored.push({ reason: `${at} has type '${type}', which is not handled` });
      return;
    }
    const platformEventId = platformId(event.id, `${at}.id`);
    const occurredAt = epochMillis(event.created_timestamp, `${at}.created_timestamp`);
    const messageCreate = requiredRecord(event.message_create, `${at}.message_create`);
    const senderId = platformId(messageCreate.sender_id, `${at}.message_create.sender_id`);
    const target = requiredRecord(messageCreate.target, `${at}.message_create.target`);
    const recipientId = platformId(target.recipient_id, `${at}.message_create.target.recipient_id`);
    const messageData = requiredRecord(messageCreate.message_data, `${at}.message_create.message_data`);
    const text = requiredString(messageData.text, `${at}.message_create.message_data.text`);
    const sourceAppId = optionalPlatformId(messageCreate.source_app_id, `${at}.message_create.source_app_id`);
    const common = { accountId, platformEventId, occurredAt, text, senderId, recipientId, raw: event };

    if (senderId === accountId) {
      events.push({
        ...common,
        type: 'dm_sent',
        counterpartId: recipientId,
        conversationKey: dmConversationKey(accountId, recipientId),
        sourceAppId,
        recipient: contactProfile(delivery.users, recipientId),
      });
    } else if (recipientId === accountId) {
      events.push({
        ...common,
        type: 'dm_received',
        counterpartId: senderId,
        conversationKey: dmConversationKey(accountId, senderId),
        sender: contactProfile(delivery.users, senderId),
      });
    } else {
      throw new InvalidActivity(
        `${at}.message_create.target.recipient_id: neither the sender (${senderId}) nor the recipient (${recipientId}) is the account ${accountId}`,
      );
    }
  });
  return { events, ignored };
}
