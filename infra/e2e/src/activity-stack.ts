import { createHmac, randomBytes } from 'node:crypto';
import axios, { type AxiosInstance } from 'axios';
import { startHarness, type Harness, type HarnessOptions } from '@crm/auth/src/testing/harness';
import { migratedDatabase, waitFor, type TestDatabase } from '@crm/testing';
import { loadTicketingConfig } from '@crm/ticketing/src/config';
import { MIGRATIONS_DIR as TICKETING_MIGRATIONS, startTicketing } from '@crm/ticketing/src/service';
import { readConfig as readIngestConfig } from '@crm/webhook-ingest/src/config';
import { startWebhookIngest } from '@crm/webhook-ingest/src/service';

/** Generous: the test machine may be shared. */
const SLOW = 45_000;

/** auth (with the platform simulator) whose webhook is a running webhook-ingest in front of ticketing. */
export interface ActivityStack {
  harness: Harness;
  ticketingUrl: string;
  /** ticketing's API, with a CRM token it accepts. */
  crm: AxiosInstance;
  /** POSTs the bytes to webhook-ingest's X Activity API webhook, signed as the platform signs; the answer's status. */
  deliverXaa: (body: Buffer) => Promise<number>;
  /** The same to its Account Activity webhook. */
  deliverAccountActivity: (body: Buffer) => Promise<number>;
  stop: () => Promise<void>;
}

/** The platform's signature: `sha256=` and the base64 HMAC-SHA256 of the body under the app's consumer secret. */
export const platformSignature = (secret: string, body: Buffer) => `sha256=${createHmac('sha256', secret).update(body).digest('base64')}`;

export async function startActivityStack(prefix: string, options: Omit<HarnessOptions, 'prefix' | 'webhookUrl'> = {}): Promise<ActivityStack> {
  const token = `${prefix}-token-${randomBytes(12).toString('hex')}`;
  const ticketingDb: TestDatabase = await migratedDatabase(`${prefix}_ticketing`, TICKETING_MIGRATIONS);
  let ticketingUrl = '';
  const harness = await startHarness({
    ...options,
    prefix,
    webhookUrl: async ({ vhost, envName, logger }) => {
      const ingest = await startWebhookIngest(readIngestConfig({ PORT: '0', AMQP_URL: vhost.url }), { logger });
      const ticketing = await startTicketing(loadTicketingConfig({ NODE_ENV: 'production', PORT: '0', AMQP_URL: vhost.url, DATABASE_URL: ticketingDb.url, CRM_API_TOKENS: token }), { logger });
      ticketingUrl = `http://127.0.0.1:${ticketing.port}`;
      return {
        url: `http://127.0.0.1:${ingest.port}/webhooks/${envName}`,
        close: async () => {
          await ingest.stop();
          await ticketing.stop();
        },
      };
    },
  });
  const deliver = async (url: string, body: Buffer) => {
    const answer = await axios.post(url, body, {
      headers: { 'content-type': 'application/json', 'x-twitter-webhooks-signature': platformSignature(harness.secrets.consumerSecret, body) },
      validateStatus: () => true,
    });
    return answer.status;
  };
  return {
    harness,
    ticketingUrl,
    crm: axios.create({ baseURL: ticketingUrl, validateStatus: () => true, headers: { authorization: `Bearer ${token}` } }),
    deliverXaa: (body) => deliver(`${harness.config.PUBLIC_WEBHOOK_URL}/xaa`, body),
    deliverAccountActivity: (body) => deliver(harness.config.PUBLIC_WEBHOOK_URL, body),
    stop: async () => {
      await harness.stop();
      await ticketingDb.drop();
    },
  };
}

type Json = Record<string, unknown>;

interface Ticket {
  contact: { id: string } | null;
  activities: { platformEventId: string; text: string | null; kind: string }[];
}

/** An X Activity API delivery as documented: `{data: {filter, event_type, payload, includes?}}`. */
export interface XaaDelivery {
  name: string;
  body: Buffer;
}

/**
 * What a delivery must become in ticketing, read from the delivery itself: a DM, a mention, a
 * reply or a quote is an activity with its id and text on the ticket of the other person; a DM
 * the account sent, a like it gave or a follow is on the other person's timeline. Null for events that make
 * neither (profile changes, spaces, news, a like whose liker the platform does not name, ...).
 */
export interface ExpectedOutcome {
  account: string;
  /** The other person: the contact the activity belongs to. */
  person: string;
  ticket?: { eventId: string; text: string };
  timeline?: { kind: RegExp; eventId?: string; text?: string };
}

export function expectedOutcome(delivery: XaaDelivery): ExpectedOutcome | null {
  const data = (JSON.parse(delivery.body.toString('utf8')) as { data: Json }).data;
  const account = String((data.filter as Json | undefined)?.user_id ?? '');
  const payload = data.payload as Json;
  switch (data.event_type) {
    case 'dm.received':
    case 'dm.sent': {
      const event = (payload.direct_message_events as Json[])[0]!;
      const create = event.message_create as { sender_id: string; target: { recipient_id: string }; message_data: { text: string } };
      const dm = { eventId: String(event.id), text: create.message_data.text };
      // The account's own DM never opens a ticket: it is on the recipient's timeline (and on their ticket, if one is open).
      if (create.sender_id === account) return { account, person: create.target.recipient_id, timeline: { kind: /^dm_/, ...dm } };
      return { account, person: create.sender_id, ticket: dm };
    }
    case 'post.mention.create':
    case 'post.reply.create':
    case 'post.quote.create': {
      const text = (payload.note_tweet as { text?: string } | undefined)?.text ?? String(payload.text);
      return { account, person: String(payload.author_id), ticket: { eventId: String(payload.id), text } };
    }
    case 'like.create':
      return payload.liked_tweet_author_id === account ? null : { account, person: String(payload.liked_tweet_author_id), timeline: { kind: /like/ } };
    case 'follow.follow': {
      const [source, target] = [payload.source, payload.target].map((user) => String(((user as Json).data as Json).id));
      return { account, person: source === account ? target! : source!, timeline: { kind: /follow/ } };
    }
    default:
      return null;
  }
}

/**
 * Delivers each one through the stack (webhook-ingest, RabbitMQ, ticketing on PostgreSQL) and
 * waits until each ends where `expectedOutcome` says, with its text and person. Answers the
 * outcomes checked, by delivery name.
 */
export async function expectDeliveredOutcomes(stack: ActivityStack, deliveries: XaaDelivery[]): Promise<string[]> {
  const outcomes = deliveries.map((delivery) => ({ delivery, expected: expectedOutcome(delivery) }));
  for (const account of new Set(outcomes.flatMap(({ expected }) => (expected ? [expected.account] : [])))) {
    expect((await stack.crm.put(`/v1/partner-configs/${account}`, { pageName: 'Support' })).status).toBe(201);
  }
  for (const { delivery } of outcomes) expect({ name: delivery.name, status: await stack.deliverXaa(delivery.body) }).toEqual({ name: delivery.name, status: 200 });

  const contactOf = async (account: string, person: string) => ((await stack.crm.get(`/v1/contacts?accountId=${account}&platformUserId=${person}`)).data.items as { id: string }[])[0];
  const checked: string[] = [];
  for (const { delivery, expected } of outcomes) {
    if (!expected) continue;
    const { account, person } = expected;
    if (expected.ticket) {
      const { eventId, text } = expected.ticket;
      const ticket: Ticket | undefined = await waitFor(
        async () => {
          const list = (await stack.crm.get(`/v1/tickets?accountId=${account}`)).data.items as { id: string }[];
          const tickets = await Promise.all(list.map(async ({ id }) => (await stack.crm.get(`/v1/tickets/${id}`)).data as Ticket));
          return tickets.find((t) => t.activities.some((a) => a.platformEventId === eventId));
        },
        { what: `${delivery.name} on a ticket`, timeoutMs: SLOW },
      );
      expect({ name: delivery.name, text: ticket!.activities.find((a) => a.platformEventId === eventId)!.text, contact: ticket!.contact?.id }).toEqual({ name: delivery.name, text, contact: (await contactOf(account, person))?.id });
    } else {
      await waitFor(
        async () => {
          const contact = await contactOf(account, person);
          if (!contact) return undefined;
          const timeline = (await stack.crm.get(`/v1/contacts/${contact.id}`)).data.timeline as { kind: string; platformEventId: string; text: string | null }[];
          const { kind, eventId, text } = expected.timeline!;
          return timeline.some((a) => kind.test(a.kind) && (eventId === undefined || (a.platformEventId === eventId && a.text === text))) || undefined;
        },
        { what: `${delivery.name} on ${person}'s timeline`, timeoutMs: SLOW },
      );
    }
    checked.push(delivery.name);
  }
  return checked;
}
