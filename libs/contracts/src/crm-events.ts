import { TICKET_PRIORITIES, TICKET_STATUSES } from './ticket-lists';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { defineContract, type Contract } from './envelope';
import { AnyObject, Nullable, StringEnum } from './schema';
import { TASK_STATUSES, type TaskStatus } from './tracking-events';

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
  'ticket.order_changed',
] as const;
export type CrmEventType = (typeof CRM_EVENT_TYPES)[number];

export const CRM_EVENT_VERSION = 1 as const;

/** What a `ticket.order_changed` event says happened to the ticket's order. */
export const ORDER_CHANGES = ['linked', 'unlinked', 'status_changed', 'eta_moved', 'rider_silent'] as const;
export type OrderChangeKind = (typeof ORDER_CHANGES)[number];

const uuid = Type.String({ pattern: '^[0-9a-f-]{36}$' });
const nullableString = Nullable(Type.String());
const timestamp = Type.String({ format: 'date-time' });


export const CrmTicketSummarySchema = Type.Object(
  {
    id: uuid,
    accountId: Type.String(),
    status: StringEnum(TICKET_STATUSES),
    channel: Type.String(),
    queue: Type.String(),
    folder: Type.String(),
    assignee: nullableString,
    team: nullableString,
    priority: StringEnum(TICKET_PRIORITIES),
    tags: Type.Array(Type.String()),
    mergedInto: nullableString,
    subject: Type.String(),
    contactId: nullableString,
    lastActivityAt: timestamp,
    updatedAt: timestamp,
  },
  { description: 'The ticket as it is after the change (a summary: the API has the whole of it).' },
);
/** The ticket as it is after the change (a summary: the API has the whole of it). */
export type CrmTicketSummary = Static<typeof CrmTicketSummarySchema>;

/** The parts an event carries besides the ticket; which one each type requires is in REQUIRED_PARTS. */
const PARTS = {
  changes: Type.Record(Type.String(), Type.Object({ from: Type.Unknown(), to: Type.Unknown() }), {
    description: 'ticket.updated: each changed field with its value before and after.',
  }),
  activity: Type.Object(
    {
      id: uuid,
      kind: Type.String(),
      direction: Type.String(),
      text: nullableString,
      occurredAt: timestamp,
      data: Type.Optional(Nullable(AnyObject())),
    },
    { description: 'ticket.activity: the timeline entry.' },
  ),
  merge: Type.Object(
    { targetId: uuid, sourceIds: Type.Array(uuid, { minItems: 1 }), rule: nullableString },
    { description: 'ticket.merged / ticket.unmerged: the tickets involved and the rule that merged them (null: a person).' },
  ),
  sla: Type.Object(
    { clock: StringEnum(['first_response', 'resolution']), dueAt: timestamp, detectedAt: timestamp },
    { description: 'ticket.sla_breached / ticket.sla_at_risk: which clock, when it reached the stage, when ticketing noticed.' },
  ),
  order: Type.Object(
    {
      change: StringEnum(ORDER_CHANGES, { description: 'What happened: linked (by an agent or found in a message), unlinked, or a change tracking announced of the followed task.' }),
      clientId: Type.String(),
      taskId: Type.String(),
      linkedBy: StringEnum(['agent', 'auto']),
      reference: Nullable(Type.String({ description: 'The words the order was found by (linkedBy auto).' })),
      // An enum with null among its values: null must be allowed by `enum` as well as by `type`.
      status: Type.Unsafe<TaskStatus | null>({ type: ['string', 'null'], enum: [...TASK_STATUSES, null], description: 'The followed task\'s status as last heard; null until known.' }),
      eta: Nullable(timestamp),
    },
    { description: 'ticket.order_changed: the order as it is after the change (as it was, for unlinked).' },
  ),
};
type PartName = keyof typeof PARTS;

const common = {
  version: Type.Literal(CRM_EVENT_VERSION),
  actor: Type.String({ minLength: 1, maxLength: 200, description: "Who made the change: a principal's id, or `system` for what the platform's activity did." }),
  ticketId: uuid,
  accountId: Type.String(),
  ticket: CrmTicketSummarySchema,
};

/** Any CRM event: the common fields and every part, optional. */
export const CrmEventPayloadSchema = Type.Object({
  type: StringEnum(CRM_EVENT_TYPES),
  ...common,
  changes: Type.Optional(PARTS.changes),
  activity: Type.Optional(PARTS.activity),
  merge: Type.Optional(PARTS.merge),
  sla: Type.Optional(PARTS.sla),
  order: Type.Optional(PARTS.order),
});
export type CrmEventPayload = Static<typeof CrmEventPayloadSchema>;

const REQUIRED_PARTS: Record<CrmEventType, PartName[]> = {
  'ticket.created': [],
  'ticket.updated': ['changes'],
  'ticket.activity': ['activity'],
  'ticket.merged': ['merge'],
  'ticket.unmerged': ['merge'],
  'ticket.sla_breached': ['sla'],
  'ticket.sla_at_risk': ['sla'],
  'ticket.order_changed': ['order'],
};

/** The schema of one event type: its `type`, the common fields, the part it requires and the others optional. */
function crmEventSchema(type: CrmEventType): TSchema {
  const parts = Object.fromEntries(
    (Object.keys(PARTS) as PartName[]).map((name) => [name, REQUIRED_PARTS[type].includes(name) ? PARTS[name] : Type.Optional(PARTS[name])]),
  );
  return Type.Object({ type: Type.Literal(type), ...common, ...parts }, { description: `The CRM event ${type}.` });
}

/** The envelope type of a CRM event: `crm.ticket.created.v1`, `crm.account.silent.v1`. */
export const crmEnvelopeType = (type: CrmEventType | CrmAccountEventType, version = CRM_EVENT_VERSION) => `crm.${type}.v${version}`;

/** One contract per event type (the same payload shape, with the part the type requires). */
export const CrmEvents = Object.fromEntries(CRM_EVENT_TYPES.map((type) => [type, defineContract(crmEnvelopeType(type), crmEventSchema(type))])) as unknown as Record<
  CrmEventType,
  Contract<CrmEventPayload>
>;

/**
 * Events about an account rather than a ticket, on the same exchange and webhooks: the silence
 * alarm (an account that usually gets deliveries has had none for a while, and when they come
 * again). Their payload carries `accountId` and `silence` instead of a ticket.
 */
export const CRM_ACCOUNT_EVENT_TYPES = ['account.silent', 'account.delivering'] as const;
export type CrmAccountEventType = (typeof CRM_ACCOUNT_EVENT_TYPES)[number];

/** Every type the CRM can hear (a webhook endpoint may choose among them). */
export const CRM_ALL_EVENT_TYPES = [...CRM_EVENT_TYPES, ...CRM_ACCOUNT_EVENT_TYPES] as const;
export type CrmAnyEventType = (typeof CRM_ALL_EVENT_TYPES)[number];

const CrmSilenceSchema = Type.Object(
  {
    silentSince: Type.String({ format: 'date-time', description: 'When the last delivery before the silence was received.' }),
    detectedAt: Type.String({ format: 'date-time', description: 'When ticketing noticed (the silence, or its end).' }),
    resumedAt: Nullable(Type.String({ format: 'date-time', description: 'account.delivering: when the first delivery after the silence was received; null in account.silent.' })),
  },
  { additionalProperties: false, description: 'The silence: since when, when it was noticed, when deliveries came again.' },
);

/** The schema of one account event type. */
function crmAccountEventSchema(type: CrmAccountEventType) {
  return Type.Object(
    {
      type: Type.Literal(type),
      version: Type.Literal(CRM_EVENT_VERSION),
      actor: Type.String({ minLength: 1, maxLength: 200, description: '`system`: the silence alarm.' }),
      accountId: Type.String(),
      silence: CrmSilenceSchema,
    },
    { description: `The CRM event ${type}.` },
  );
}

export const CrmAccountEventPayloadSchema = Type.Object({
  type: StringEnum(CRM_ACCOUNT_EVENT_TYPES),
  version: Type.Literal(CRM_EVENT_VERSION),
  actor: Type.String(),
  accountId: Type.String(),
  silence: CrmSilenceSchema,
});
export type CrmAccountEventPayload = Static<typeof CrmAccountEventPayloadSchema>;

/** One contract per account event type. */
export const CrmAccountEvents = Object.fromEntries(
  CRM_ACCOUNT_EVENT_TYPES.map((type) => [type, defineContract(crmEnvelopeType(type), crmAccountEventSchema(type))]),
) as unknown as Record<CrmAccountEventType, Contract<CrmAccountEventPayload>>;
