/** What ticketing understands of the platform's activity: typed, validated, ids as strings. */

/** A platform user as seen in a user object, the source of a contact. */
export interface ContactProfile {
  platformUserId: string;
  screenName: string | null;
  name: string | null;
  avatarUrl: string | null;
  /** The user object as received; null when the delivery carried none for this user. */
  raw: Record<string, unknown> | null;
}

interface DirectMessageBase {
  /** The connected account the delivery is for (`for_user_id`). */
  accountId: string;
  platformEventId: string;
  occurredAt: Date;
  text: string;
  senderId: string;
  recipientId: string;
  /** The other party of the conversation: the customer. */
  counterpartId: string;
  /** Threads DMs: one conversation per account and counterpart. */
  conversationKey: string;
  /** The DM event as received, kept with the activity. */
  raw: Record<string, unknown>;
}

/** A customer's DM to the account. */
export interface DmReceived extends DirectMessageBase {
  type: 'dm_received';
  sender: ContactProfile;
}

/** A DM the account sent (from any app, ours included); threads as outbound (issue 3). */
export interface DmSent extends DirectMessageBase {
  type: 'dm_sent';
  sourceAppId: string | null;
  recipient: ContactProfile;
}

export type DomainEvent = DmReceived | DmSent;

/** Something in a delivery that is understood but deliberately not acted on. */
export interface IgnoredActivity {
  reason: string;
}

/** The result of interpreting one delivery. */
export interface Interpretation {
  accountId: string | null;
  events: DomainEvent[];
  ignored: IgnoredActivity[];
}

export const dmConversationKey = (accountId: string, counterpartId: string) => `dm:${accountId}:${counterpartId}`;
