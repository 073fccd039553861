import { nextEventId } from './ids';
import { platformUser, type PlatformUser, type UserRef } from './users';

export { type PlatformUser, type UserRef, type UserInput } from './users';

/** An app as the `apps` map of a DM delivery describes it. */
export interface PlatformApp {
  id: string;
  name: string;
  url: string;
}

export interface DirectMessageEvent {
  type: 'message_create';
  id: string;
  created_timestamp: string;
  message_create: {
    target: { recipient_id: string };
    sender_id: string;
    source_app_id?: string;
    message_data: {
      text: string;
      entities: { hashtags: unknown[]; symbols: unknown[]; user_mentions: unknown[]; urls: unknown[] };
      attachment?: { type: 'media'; media: { id: number; id_str: string; type: string; media_url_https: string } };
    };
  };
}

/** A `direct_message_events` delivery with its top-level `users` (and, for sent DMs, `apps`) maps. */
export interface DirectMessageDelivery {
  for_user_id: string;
  direct_message_events: DirectMessageEvent[];
  users: Record<string, PlatformUser>;
  apps?: Record<string, PlatformApp>;
}

export interface DirectMessageInput {
  /** The connected account the delivery is for. */
  account: UserRef;
  /** The other side of the conversation. */
  customer: UserRef;
  text: string;
  /** A fixed event id (to send the same event twice); a fresh one otherwise. */
  eventId?: string;
  createdAt?: Date | number;
  /** A photo, video or GIF attached to the DM. */
  media?: { type?: 'photo' | 'video' | 'animated_gif'; url: string; /** The uploaded media's id (else one is made up). */ id?: string };
}

/** The app a DM sent by the account was sent through (the CRM's own app, by default). */
export const DEFAULT_APP: PlatformApp = { id: '2400000001', name: 'CRM Support (simulated)', url: 'https://crm.example.test' };

function directMessage(input: DirectMessageInput, sentByAccount: boolean, app?: PlatformApp): DirectMessageDelivery {
  const account = platformUser(input.account);
  const customer = platformUser(input.customer);
  const atMs = input.createdAt === undefined ? Date.now() : new Date(input.createdAt).getTime();
  const [sender, recipient] = sentByAccount ? [account, customer] : [customer, account];
  const id = input.eventId ?? nextEventId(atMs);
  const mediaId = input.media?.id ?? (BigInt(id) + 1n).toString();
  const attachment = input.media
    ? { attachment: { type: 'media' as const, media: { id: Number(mediaId), id_str: mediaId, type: input.media.type ?? 'photo', media_url_https: input.media.url } } }
    : {};
  const delivery: DirectMessageDelivery = {
    for_user_id: account.id,
    direct_message_events: [
      {
        type: 'message_create',
        id,
        created_timestamp: String(atMs),
        message_create: {
          target: { recipient_id: recipient.id },
          sender_id: sender.id,
          ...(app ? { source_app_id: app.id } : {}),
          // Entities are not extracted from the text; consumers should not rely on them being filled.
          message_data: { text: input.text, entities: { hashtags: [], symbols: [], user_mentions: [], urls: [] }, ...attachment },
        },
      },
    ],
    // Real deliveries key users by string id at the top level (the documented example nests them in `apps`).
    users: { [sender.id]: sender, [recipient.id]: recipient },
  };
  if (app) delivery.apps = { [app.id]: app };
  return delivery;
}

/** A customer's DM to the account, as the account's webhook receives it. */
export function directMessageReceived(input: DirectMessageInput): DirectMessageDelivery {
  return directMessage(input, false);
}

/** The echo of a DM the account sent (through `app`): the platform delivers the account's own DMs too. */
export function directMessageSent(input: DirectMessageInput & { app?: PlatformApp }): DirectMessageDelivery {
  return directMessage(input, true, input.app ?? DEFAULT_APP);
}

const PLATFORM_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026' };

/**
 * The bytes the platform would send: JSON with `<`, `>` and `&` escaped as \u003c, \u003e,
 * \u0026. Those characters only occur inside JSON strings, so replacing them everywhere is
 * safe; parsing and re-serialising the result gives different bytes, as with the real platform.
 */
export function serializeLikePlatform(delivery: unknown): Buffer {
  return Buffer.from(JSON.stringify(delivery).replace(/[<>&]/g, (char) => PLATFORM_ESCAPES[char]!), 'utf8');
}
