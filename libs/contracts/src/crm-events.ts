import { defineContract, type Contract } from './envelope';

/**
 * What the CRM hears: every change of a ticket, published after its transaction commits on the
 * `crm.events` topic exchange with the event type as routing key. The envelope type is
 * `crm.<type>.v<version>`; the payload repeats `type` and `version`, so a consumer reading only
 * the payload (a webhook receiver) knows what it holds. New fields may appear within a version;
 * a removed or changed one makes a new version.
 */
export const CRM_EVENT_TYPES = [
  'ticket.created',
  'ticket.updated',
  'ticket.activity',
  'ticket.merged',
  'ticket.unmerged',
  'ticket.sla_breached',
  'ticket.sla_at_risk',
] as const;
export type CrmEventType = (typeof CRM_EVENT_TYPES)[number];

export const CRM_EVENT_VERSION = 1;

/** The ticket as it is after the change (a summary: the API has the whole of it). */
export interface CrmTicketSummary {
  id: string;
  accountId: string;
  status: string;
  channel: string;
  queue: string;
  folder: string;
  assignee: string | null;
  team: string | null;
  priority: string;
  tags: string[];
  mergedInto: string | null;
  subject: string;
  contactId: string | null;
  lastActivityAt: string;
  updatedAt: string;
}

export interface CrmEventPayload {
  type: CrmEventType;
  version: number;
  /** Who made the change: a principal's id, or `system` for what the platform's activity did. */
  actor: string;
  ticketId: string;
  accountId: string;
  ticket: CrmTicketSummary;
  /** ticket.updated: each changed field with its value before and after. */
  changes?: Record<string, { from: unknown; to: unknown }>;
  /** ticket.activity: the timeline entry. */
  activity?: { id: string; kind: string; direction: string; text: string | null; occurredAt: string; data?: Record<string, unknown> | null };
  /** ticket.merged / ticket.unmerged: the tickets involved and the rule that merged them (null: a person). */
  merge?: { targetId: string; sourceIds: string[]; rule: string | null };
  /** ticket.sla_breached / ticket.sla_at_risk: which clock, when it reached the stage, when ticketing noticed. */
  sla?: { clock: 'first_response' | 'resolution'; dueAt: string; detectedAt: string };
}

const uuid = { type: 'string', pattern: '^[0-9a-f-]{36}$' } as const;
const nullableString = { type: ['string', 'null'] } as const;

const ticketSummary = {
  type: 'object',
  required: ['id', 'accountId', 'status', 'channel', 'queue', 'folder', 'assignee', 'team', 'priority', 'tags', 'mergedInto', 'subject', 'contactId', 'lastActivityAt', 'updatedAt'],
  properties: {
    id: uuid,
    accountId: { type: 'string' },
    status: { type: 'string', enum: ['open', 'pending', 'resolved', 'closed', 'merged'] },
    channel: { type: 'string' },
    queue: { type: 'string' },
    folder: { type: 'string' },
    assignee: nullableString,
    team: nullableString,
    priority: { type: 'string', enum: ['low', 'normal', 'high', 'urgent'] },
    tags: { type: 'array', items: { type: 'string' } },
    mergedInto: { type: ['string', 'null'] },
    subject: { type: 'string' },
    contactId: nullableString,
    lastActivityAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
} as const;

function crmEventSchema(type: CrmEventType, required: string[]) {
  return {
    type: 'object',
    required: ['type', 'version', 'actor', 'ticketId', 'accountId', 'ticket', ...required],
    properties: {
      type: { const: type },
      version: { const: CRM_EVENT_VERSION },
      actor: { type: 'string', minLength: 1, maxLength: 200 },
      ticketId: uuid,
      accountId: { type: 'string' },
      ticket: ticketSummary,
      changes: { type: 'object', additionalProperties: { type: 'object', required: ['from', 'to'] } },
      activity: {
        type: 'object',
        required: ['id', 'kind', 'direction', 'text', 'occurredAt'],
        properties: { id: uuid, kind: { type: 'string' }, direction: { type: 'string' }, text: nullableString, occurredAt: { type: 'string', format: 'date-time' } },
      },
      merge: {
        type: 'object',
        required: ['targetId', 'sourceIds', 'rule'],
        properties: { targetId: uuid, sourceIds: { type: 'array', minItems: 1, items: uuid }, rule: nullableString },
      },
      sla: {
        type: 'object',
        required: ['clock', 'dueAt', 'detectedAt'],
        properties: { clock: { type: 'string', enum: ['first_response', 'resolution'] }, dueAt: { type: 'string', format: 'date-time' }, detectedAt: { type: 'string', format: 'date-time' } },
      },
    },
  };
}

const REQUIRED_PARTS: Record<CrmEventType, string[]> = {
  'ticket.created': [],
  'ticket.updated': ['changes'],
  'ticket.activity': ['activity'],
  'ticket.merged': ['merge'],
  'ticket.unmerged': ['merge'],
  'ticket.sla_breached': ['sla'],
  'ticket.sla_at_risk': ['sla'],
};

/** The envelope type of a CRM event: `crm.ticket.created.v1`. */
export const crmEnvelopeType = (type: CrmEventType, version = CRM_EVENT_VERSION) => `crm.${type}.v${version}`;

/** One contract per event type (the same payload shape, with the part the type requires). */
export const CrmEvents = Object.fromEntries(
  CRM_EVENT_TYPES.map((type) => [type, defineContract<CrmEventPayload>(crmEnvelopeType(type), crmEventSchema(type, REQUIRED_PARTS[type]))]),
) as Record<CrmEventType, Contract<CrmEventPayload>>;
