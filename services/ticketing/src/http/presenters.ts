import type { MediaAttachment } from '../domain/social-events';
import type { AccountRow } from '../adapters/db/accounts';
import type { HeldCount, HeldRow } from '../adapters/db/held-deliveries';
import type { PartnerConfigRow } from '../adapters/db/partner-configs';
import type { OrderRow } from '../adapters/db/ticket-orders';
import type { ActivityRow, ContactRow, TicketRow } from '../adapters/db/ticket-queries';
import { trackingState, unknownClientAnswer, type TrackingState } from '../domain/order-link';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The current state of a DM ticket's conversation: who is typing, what each side has read. */
export interface ConversationStateJson {
  typing: { contactAt: string | null; accountAt: string | null };
  read: {
    contact: { lastReadEventId: string; readAt: string } | null;
    account: { lastReadEventId: string; readAt: string } | null;
  };
}

/** Ticket JSON of docs/architecture.md ("CRM-facing HTTP"), plus routing and DM state. */
export interface TicketJson {
  id: string;
  accountId: string;
  status: string;
  channel: 'dm' | 'public';
  queue: string;
  folder: string;
  routingRule: string | null;
  contact: { id: string; screenName: string | null; name: string | null } | null;
  subject: string;
  createdAt: string;
  updatedAt: string;
  lastActivityAt: string;
  /**
   * `firstRespondedAt`: when the platform accepted the ticket's first reply sent from it. Due
   * times are null while their clock is paused or stopped (unless it had run out); `breached`
   * stays once a clock ran out; `atRisk` while a running clock is past its at-risk share;
   * `paused`: the resolution clock is paused (the ticket is pending).
   */
  sla: {
    firstResponseDueAt: string | null;
    resolutionDueAt: string | null;
    firstRespondedAt: string | null;
    breached: boolean;
    breaches: { kind: 'first_response' | 'resolution'; at: string }[];
    atRisk: boolean;
    paused: boolean;
  };
  /** Open or pending DM tickets only (null otherwise): state, not history. */
  conversationState: ConversationStateJson | null;
  /** The latest message's text (inbound or outbound, up to 200 characters), as lists show it; null: none yet. */
  snippet: string | null;
  /** The order the ticket is linked to, and whether tracking can show it. */
  order: OrderJson | null;
  /** The agent it is assigned to, and the team. */
  assignee: string | null;
  team: string | null;
  priority: string;
  tags: string[];
  /** The ticket this one was merged into (status `merged`), and the partner configuration's rule that did it (null: a person). */
  mergedInto: string | null;
  mergeRule: string | null;
}

export interface OrderJson {
  clientId: string;
  taskId: string;
  linkedAt: string;
  /** `agent`, or `auto`: found in a customer's message. */
  linkedBy: 'agent' | 'auto';
  /** The words it was found by (auto); null for an agent's link. */
  reference: string | null;
  /** The followed task's status (TASK_STATUSES) and ETA, as last heard; null until known. */
  status: string | null;
  eta: string | null;
  tracking: TrackingState;
}

/** How ticket JSON is made: tracking answers older than `trackingRefreshAfterMs` show as stale. */
export interface TicketView {
  trackingRefreshAfterMs: number;
}

export interface ActivityJson {
  id: string;
  ticketId: string | null;
  kind: string;
  direction: 'inbound' | 'outbound' | 'event' | 'internal';
  text: string | null;
  platformEventId: string | null;
  occurredAt: string;
  deleted: boolean;
  /** Who wrote it, for inbound activity (in a thread, each reply's own author). */
  author: { id: string; screenName: string | null; name: string | null } | null;
  attachments: MediaAttachment[];
  /** What this system sent: pending, sent, failed or unknown; null for everything else. */
  status: 'pending' | 'sent' | 'failed' | 'unknown' | null;
  /** Why a send failed or has an unknown outcome: auth's code, the platform's message and code. */
  failure: { code: string; message: string; platformCode: number | null } | null;
  /** Who made an internal entry (note, change, merge, action): a principal's id, or `system`; null for the platform's activity. */
  by: string | null;
  /** The name of who made it (an agent's display name, a credential's name), as last recorded; null when unknown or for the platform's activity. */
  byName: string | null;
  /** What an internal entry holds: the fields changed, the evidence snapshot, the merge, the action's outcome. */
  data: Record<string, unknown> | null;
  /** How the activity came: a webhook delivery, or a search query (named) that found the post first. */
  source: { kind: 'webhook' | 'search'; query: string | null };
  /** When a delivery last changed the text (the platform event came again with another text); null: never edited. */
  editedAt: string | null;
  /** The other texts the activity had, oldest first: each with when it was received and when the next text replaced it. */
  edits: { text: string | null; receivedAt: string | null; replacedAt: string | null }[];
}

const read = (eventId: string | null, at: Date | null) => (eventId && at ? { lastReadEventId: eventId, readAt: at.toISOString() } : null);

function conversationState(row: TicketRow): ConversationStateJson | null {
  if (row.channel !== 'dm' || (row.status !== 'open' && row.status !== 'pending')) return null;
  return {
    typing: { contactAt: iso(row.contact_typing_at), accountAt: iso(row.account_typing_at) },
    read: { contact: read(row.contact_read_event_id, row.contact_read_at), account: read(row.account_read_event_id, row.account_read_at) },
  };
}

/** The order columns of a ticket row, as a row of ticket_orders (null when not linked). */
/**
 * The order as a viewer that may not see its tracking client is shown it: tracking's answer for
 * an unknown client in place of the real one (nothing of the other client's task shows).
 */
export function orderAsUnknownClient(order: OrderRow): OrderRow {
  const answer = unknownClientAnswer(order.client_id, order.task_id);
  return { ...order, tracking_available: answer.available, tracking_reason: answer.reason, tracking_message: answer.message, tracking_checked_at: new Date(), status: null, eta: null };
}

export function orderOf(row: TicketRow): OrderRow | null {
  if (row.order_client_id === null || row.order_task_id === null || row.order_linked_at === null) return null;
  return {
    client_id: row.order_client_id,
    task_id: row.order_task_id,
    linked_at: row.order_linked_at,
    tracking_available: row.order_tracking_available,
    tracking_reason: row.order_tracking_reason,
    tracking_message: row.order_tracking_message,
    tracking_checked_at: row.order_tracking_checked_at,
    linked_by: row.order_linked_by ?? 'agent',
    reference: row.order_reference,
    status: row.order_status,
    eta: row.order_eta,
  };
}

export function orderJson(order: OrderRow, view: TicketView, now = new Date()): OrderJson {
  return {
    clientId: order.client_id,
    taskId: order.task_id,
    linkedAt: order.linked_at.toISOString(),
    linkedBy: order.linked_by,
    reference: order.reference,
    status: order.status,
    eta: order.eta?.toISOString() ?? null,
    tracking: trackingState(
      { available: order.tracking_available, reason: order.tracking_reason, message: order.tracking_message, checkedAt: order.tracking_checked_at },
      now,
      view.trackingRefreshAfterMs,
    ),
  };
}

/** `order` replaces the row's own order columns (e.g. just checked again). */
export function ticketJson(row: TicketRow, view: TicketView, order: OrderRow | null = orderOf(row)): TicketJson {
  return {
    id: row.id,
    accountId: row.account_id,
    status: row.status,
    channel: row.channel,
    queue: row.queue,
    folder: row.folder,
    routingRule: row.routing_rule,
    contact: row.contact_id ? { id: row.contact_id, screenName: row.contact_screen_name, name: row.contact_name } : null,
    subject: row.subject,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    lastActivityAt: row.last_activity_at.toISOString(),
    sla: {
      firstResponseDueAt: iso(row.first_response_due_at),
      resolutionDueAt: iso(row.resolution_due_at),
      firstRespondedAt: iso(row.first_response_at),
      breached: row.sla_breached,
      breaches: row.sla_breaches.map((breach) => ({ kind: breach.kind, at: new Date(breach.at).toISOString() })),
      atRisk: row.sla_at_risk,
      paused: row.status === 'pending',
    },
    conversationState: conversationState(row),
    order: order ? orderJson(order, view) : null,
    assignee: row.assignee,
    team: row.team,
    priority: row.priority,
    tags: row.tags,
    mergedInto: row.merged_into,
    mergeRule: row.merge_rule,
    snippet: row.snippet,
  };
}

export function activityJson(row: ActivityRow): ActivityJson {
  return {
    id: row.id,
    ticketId: row.ticket_id,
    kind: row.kind,
    direction: row.direction,
    text: row.text,
    platformEventId: row.platform_event_id,
    occurredAt: row.occurred_at.toISOString(),
    deleted: row.deleted,
    author: row.author_id ? { id: row.author_id, screenName: row.author_screen_name, name: row.author_name } : null,
    attachments: row.attachments ?? [],
    status: row.send_status as ActivityJson['status'],
    failure: row.send_error_code !== null && row.send_error !== null ? { code: row.send_error_code, message: row.send_error, platformCode: row.send_error_platform_code } : null,
    by: row.actor,
    byName: row.actor_name,
    data: row.data,
    source: row.source === 'search' ? { kind: 'search', query: row.search_query } : { kind: 'webhook', query: null },
    editedAt: row.edited_at ? row.edited_at.toISOString() : null,
    edits: (row.edits ?? []).map(({ text, receivedAt, replacedAt }) => ({ text, receivedAt, replacedAt })),
  };
}

export function contactJson(row: ContactRow) {
  return {
    id: row.id,
    accountId: row.account_id,
    platformUserId: row.platform_user_id,
    screenName: row.screen_name,
    name: row.name,
    avatarUrl: row.avatar_url,
    followersCount: row.followers_count,
    verified: row.verified,
    blocked: row.blocked,
    blockedChangedAt: iso(row.blocked_changed_at),
    muted: row.muted,
    mutedChangedAt: iso(row.muted_changed_at),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** A partner configuration: what was PUT with defaults filled in, and the masked credentials auth reported (null until known). */
export function partnerConfigJson(row: PartnerConfigRow) {
  return {
    pageId: row.page_id,
    ...row.config,
    orders: row.config.orders ?? null,
    consumerKey: row.consumer_key_masked,
    accessToken: row.access_token_masked,
    accountStatus: row.account_status,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function heldJson(row: HeldRow) {
  return { id: String(row.id), accountId: row.account_id, envelopeId: row.envelope_id, kind: row.kind, eventCount: row.event_count, heldAt: row.held_at.toISOString() };
}

export function heldCountJson(row: HeldCount) {
  return { accountId: row.account_id, deliveries: row.deliveries, events: row.events, oldestHeldAt: row.oldest_held_at.toISOString() };
}

/** Held deliveries of an account deleted past HELD_TTL_DAYS (they stay in the raw log). */
export function heldExpiredJson(row: { account_id: string; deliveries: number; last_expired_at: Date }) {
  return { accountId: row.account_id, deliveries: row.deliveries, lastExpiredAt: row.last_expired_at.toISOString() };
}

export function accountJson(row: AccountRow) {
  return {
    accountId: row.account_id,
    status: row.status,
    screenName: row.screen_name,
    consumerKey: row.consumer_key_masked,
    accessToken: row.access_token_masked,
    statusChangedAt: row.status_changed_at.toISOString(),
    silence: row.silent_since && row.silence_detected_at ? { silentSince: row.silent_since.toISOString(), detectedAt: row.silence_detected_at.toISOString() } : null,
  };
}
